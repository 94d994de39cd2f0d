# Vectored AIO for every file: build, boot and test the series in QEMU.
# See README.md. All state lives under build/; 'make clean' removes it.

KERNEL ?= patched
DEBUG ?= 0
HARNESS_T0 := $(shell date +%s)
export KERNEL DEBUG HARNESS_T0

S := scripts
# The logs' prefix: build/logs/<kernel>[-debug]-<mode>.*
TAG := $(KERNEL)$(if $(filter 1,$(DEBUG)),-debug)

.PHONY: postings all run check check-series compile-proof size-report legacy-report bench bench-aa profile hostprof tcgstat difftest difftest-stock difftest-aa difftest-reach difftest-fuzz deps tree apply export build guest clean help

all: check

help:
	@echo "make run                 build, boot the patched kernel, show vectored AIO working"
	@echo "make check               build, boot, run the whole suite (KERNEL=stock for the stock kernel)"
	@echo "make legacy-report [LIST=1] count file_operations still wiring .read/.write"
	@echo "make check-series        compile each patch's objects at its commit, run checkpatch on it"
	@echo "make size-report         vmlinux text/data/bss against stock: guest configuration and x86_64 defconfig"
	@echo "make compile-proof       build the objects the series touches, W=1, allmodconfig per architecture,"
	@echo "                         patched against pristine (PROOF_ARCHES, PROOF_BASE, PROOF_FILES)"
	@echo "make bench               both kernels side by side: table of patched/stock ratios and a plot"
	@echo "make bench-aa [KERNEL=stock] one kernel against itself (A/A): each ratio is its row's noise"
	@echo "make profile             instructions per read()/write(), per function, stock and patched (TCG plugin)"
	@echo "make hostprof            the host's time under TCG for one profile row: translated code against QEMU (perf)"
	@echo "make tcgstat             TCG's work per row of make bench (jump cache misses, lookups): a QEMU built with counters"
	@echo "make difftest-stock      boot the stock kernel in diff mode, store difftest/stock.out"
	@echo "make difftest            boot the patched kernel in diff mode, compare with difftest/stock.out"
	@echo "make difftest-aa         boot KERNEL twice in diff mode, the outputs must be identical"
	@echo "make difftest-reach      count the converted file_operations the differential test opens"
	@echo "make difftest-fuzz       SEED=n CASES=n: seeded random cases on both kernels, compared"
	@echo "make export              save the commits of build/linux to patches/"
	@echo "make postings            cut patches/ into the parts of patches/postings, in build/postings/, and check each"
	@echo "make apply [FORCE=1]     re-apply patches/ onto the pristine tree"
	@echo "make clean               remove build/"

deps:
	@$(S)/install-deps.sh

tree: deps
	@$(S)/fetch-tree.sh
	@$(S)/apply-series.sh

apply: tree

export:
	@$(S)/export-series.sh

# The series cut into parts a maintainer can apply (scripts/postings.py):
# patches/postings says which patches go in which part; each part is
# written to build/postings/NN-name/ and applied on pristine plus the
# parts it needs, with checkpatch --strict on each of its patches and the
# objects it touches compiled (under the heavy lock: it builds).
postings: tree
	@python3 $(S)/postings.py write
	@flock build/heavy.lock python3 $(S)/postings.py check

build: tree
	@$(S)/build-kernel.sh $(KERNEL)

guest: tree
	@$(S)/build-guest.sh

run: build guest
	@$(S)/boot.sh $(KERNEL) run
	@$(S)/show-run.sh $(KERNEL)-run

# The suite, then the two durability boots (scripts/durability.sh), which
# read-results.sh counts as one more test, then one boot of the differential
# test against the stock kernel's lines in difftest/stock.out (not on debug
# kernels: their output is not the reference's).
check: build guest
	@$(S)/boot.sh $(KERNEL) check
	@$(S)/durability.sh $(KERNEL)
	@$(S)/read-results.sh $(TAG)-check $(TAG)-durability-write $(TAG)-durability-verify
	@[ "$(DEBUG)" = 1 ] || $(S)/difftest.sh check $(KERNEL)

legacy-report: build
	@$(S)/legacy-report.sh $(if $(LIST),--list)

check-series: tree
	@$(S)/check-series.sh

# Compile proof for code the guest cannot run (scripts/compile-proof.sh):
# each architecture's allmodconfig, in build/proof/<arch>/.
compile-proof: tree
	@$(S)/compile-proof.sh

size-report: tree
	@$(S)/size-report.sh

bench: tree
	@$(S)/bench.sh

# The A/A test of make bench: the same kernel on both sides, booted
# alternately as make bench boots the two; only that kernel is built.
bench-aa: tree
	@BENCH_AA=1 BENCH_KERNEL=$(KERNEL) $(S)/bench.sh

# Where the instructions of one read() or write() go: a TCG plugin counts
# them per function on both kernels (both must be built).
profile:
	@$(S)/profile.sh

hostprof:
	@$(S)/hostprof.sh

tcgstat:
	@$(S)/tcgstat.sh

# The stock-vs-patched differential test (scripts/difftest.sh): both
# kernels must be built already; it builds the guest, never a kernel.
difftest-stock:
	@$(S)/difftest.sh record

difftest:
	@$(S)/difftest.sh compare

difftest-aa:
	@$(S)/difftest.sh aa $(KERNEL)

# Which converted file_operations the differential test opens: the stock
# kernel with a probe module (guest/reach), written to difftest/reach.txt.
difftest-reach:
	@$(S)/reach.sh

# Seeded random cases (guest/difftest.c, fuzz), the same on both kernels.
SEED ?= 1
CASES ?= 1000
difftest-fuzz:
	@SEED=$(SEED) CASES=$(CASES) $(S)/difftest.sh fuzz

clean:
	rm -rf build
