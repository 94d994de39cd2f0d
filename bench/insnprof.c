// SPDX-License-Identifier: GPL-2.0
/*
 * make profile: a QEMU TCG plugin that counts the guest instructions
 * executed between two marker addresses, per translation block.
 *
 *   -plugin build/profile/insnprof.so,start=<hex>,stop=<hex>,out=<file>
 *
 * Counting starts when the guest executes the instruction at start= and
 * stops at stop= (bench/callprof.c's prof_start() and prof_stop(), a static
 * non-PIE binary, so their addresses are known before the boot). At each
 * stop the plugin appends a window to out=: a line "# window <n>
 * translations <blocks translated in it>", then one
 * line "<tb address> <instructions in the tb> <executions> <end> <page
 * changes> <memory accesses> <lookups> <misses> <victim TLB hits> <page
 * walks>" for every translation block that ran, and resets its counts.
 * <end> says how the block ends (enum tb_end: what TCG must do next, from
 * a chained jump to a return to its main loop); <page changes> counts the
 * executions entered from a block on another guest page, which TCG cannot
 * chain to directly; <memory accesses> counts the guest loads and stores
 * its instructions made, each of which TCG sends through its software TLB.
 * <lookups> counts the executions TCG had to find the block for (after a
 * return, an indirect jump, an exit to its main loop, a change of page or
 * of privilege), <misses> those of them that a model of QEMU 7.2's per-CPU
 * jump cache misses: 4096 entries, indexed by tb_jmp_cache_hash_func() of
 * the guest address, one translation each, so that a block whose entry
 * another block took is looked up in QEMU's hash table of all blocks (the
 * slow path that make hostprof sees as qht_lookup_custom()). The last two
 * count the block's loads and stores that a model of QEMU's software TLB
 * (below) serves from its victim TLB, or walks the page tables for.
 * scripts/profile.sh
 * turns the addresses into vmlinux symbols. Meant for -smp 1.
 *
 * Only the few entry points it uses are declared here, with the signatures
 * of QEMU's plugin API version 1 (QEMU 7.2).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info_t;
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};
typedef uint32_t qemu_plugin_meminfo_t;
enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *udata);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *udata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *udata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *udata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *udata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *udata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
char *qemu_plugin_insn_disas(const struct qemu_plugin_insn *insn);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define SLOTS	(1u << 21)

/* How a translation block ends, as far as TCG's cost goes. */
enum tb_end {
	END_OTHER,	/* a direct jump or branch, or the block was full */
	END_RET,	/* ret: an indirect jump, looked up */
	END_INDIRECT,	/* call or jmp through a register or memory */
	END_EXIT,	/* stac, clac, popf, sti, ...: back to the main loop */
	END_KINDS
};

struct slot {
	uint64_t vaddr;
	uint64_t count;
	uint64_t page_changes;	/* entered from a block on another page */
	uint64_t mem;		/* loads and stores of its instructions */
	uint64_t lookups;	/* entered through a lookup by address */
	uint64_t misses;	/* of those, not in the jump cache model */
	uint64_t tlb_victim;	/* accesses the TLB model's victim TLB served */
	uint64_t tlb_fills;	/* accesses that walked the page tables */
	uint32_t ninsns;
	uint8_t end;
	bool used;
};

/* One translation of a block; a block translated again (other CPU flags,
 * or after its page changed) is another translation at the same address. */
struct tbinst {
	struct slot *slot;
};

/* QEMU 7.2's include/exec/tb-hash.h, for 4 KiB pages */
#define JC_BITS		12
#define JC_PAGE_BITS	(JC_BITS / 2)
#define JC_ADDR_MASK	((1u << JC_PAGE_BITS) - 1)
#define JC_PAGE_MASK	((1u << JC_BITS) - (1u << JC_PAGE_BITS))

static unsigned int jc_hash(uint64_t pc)
{
	uint64_t tmp = pc ^ (pc >> (12 - JC_PAGE_BITS));

	return ((tmp >> (12 - JC_PAGE_BITS)) & JC_PAGE_MASK) |
	       (tmp & JC_ADDR_MASK);
}

static const struct tbinst *jump_cache[1u << JC_BITS];

/*
 * QEMU 7.2's software TLB, per MMU index (user, kernel, kernel with SMAP
 * off while AC is set): a direct-mapped table of TLB_BITS entries indexed
 * by the page number, behind it a victim TLB of 8 entries filled in turn.
 * QEMU sizes the table from its use at each flush, between 64 entries and
 * far more; 256 is its starting size. An access that misses both walks the
 * guest's page tables in QEMU's C code.
 */
#define TLB_BITS	8
#define TLB_IDX		16
#define VTLB_SIZE	8
static uint64_t tlb[TLB_IDX][1u << TLB_BITS];
static uint64_t vtlb[TLB_IDX][VTLB_SIZE];
static unsigned int vtlb_next[TLB_IDX];
static uint8_t prev_end = END_EXIT;
static bool prev_user;

static struct slot *slots;
static uint64_t start_addr, stop_addr;
static FILE *out;
static bool counting;
static unsigned int window;
static uint64_t translations;	/* blocks translated while counting */
static uint64_t phantoms;	/* of those, ending before a page: phantom() */
static uint64_t prev_page;

static struct slot *lookup(uint64_t vaddr, uint32_t ninsns)
{
	uint64_t h = (vaddr * 0x9e3779b97f4a7c15ull) >> 43;
	unsigned int i;

	for (i = 0; i < SLOTS; i++) {
		struct slot *s = &slots[(h + i) & (SLOTS - 1)];

		if (!s->used) {
			s->used = true;
			s->vaddr = vaddr;
			s->ninsns = ninsns;
			return s;
		}
		if (s->vaddr == vaddr && s->ninsns == ninsns)
			return s;
	}
	fprintf(stderr, "insnprof: table full\n");
	abort();
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	const struct tbinst *t = udata;
	struct slot *s = t->slot;
	bool user = s->vaddr < 0xffff800000000000ull;
	bool page = (s->vaddr >> 12) != prev_page;
	bool looked = prev_end != END_OTHER || page || user != prev_user;
	bool miss = false;

	if (looked) {
		unsigned int h = jc_hash(s->vaddr);

		miss = jump_cache[h] != t;
		jump_cache[h] = t;
	}
	if (counting) {
		s->count++;
		if (page)
			s->page_changes++;
		if (looked)
			s->lookups++;
		if (miss)
			s->misses++;
	}
	prev_page = s->vaddr >> 12;
	prev_end = s->end;
	prev_user = user;
}

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *udata)
{
	struct slot *s = udata;
	unsigned int idx = info & (TLB_IDX - 1);	/* MemOpIdx's mmu_idx */
	uint64_t page = (vaddr >> 12) + 1;		/* 0: an empty entry */
	uint64_t *e = &tlb[idx][(vaddr >> 12) & ((1u << TLB_BITS) - 1)];
	unsigned int k;

	if (counting)
		s->mem++;
	if (*e == page)
		return;
	for (k = 0; k < VTLB_SIZE; k++) {
		if (vtlb[idx][k] == page) {
			/* QEMU swaps the two entries */
			vtlb[idx][k] = *e;
			*e = page;
			if (counting)
				s->tlb_victim++;
			return;
		}
	}
	vtlb[idx][vtlb_next[idx]++ % VTLB_SIZE] = *e;
	*e = page;
	if (counting)
		s->tlb_fills++;
}

static enum tb_end classify(const char *d)
{
	static const char *const exits[] = {
		"stac", "clac", "popf", "sti", "sysret", "iret", "wrmsr", "cpuid",
		"lfence", "mov %cr", "hlt", "rdtsc", NULL,
	};
	int k;

	while (*d == ' ')
		d++;
	if (!strncmp(d, "ret", 3))
		return END_RET;
	if ((!strncmp(d, "call", 4) || !strncmp(d, "jmp", 3)) && strchr(d, '*'))
		return END_INDIRECT;
	for (k = 0; exits[k]; k++)
		if (!strncmp(d, exits[k], strlen(exits[k])))
			return END_EXIT;
	return END_OTHER;
}

static void dump(void)
{
	unsigned int i;

	fprintf(out, "# window %u translations %" PRIu64 " phantoms %" PRIu64
		"\n", ++window, translations, phantoms);
	translations = 0;
	phantoms = 0;
	for (i = 0; i < SLOTS; i++) {
		struct slot *s = &slots[i];

		if (s->used && s->count) {
			fprintf(out, "%" PRIx64 " %u %" PRIu64 " %u %" PRIu64
				" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
				" %" PRIu64 "\n",
				s->vaddr, s->ninsns, s->count, s->end,
				s->page_changes, s->mem, s->lookups, s->misses,
				s->tlb_victim, s->tlb_fills);
			s->count = 0;
			s->page_changes = 0;
			s->mem = 0;
			s->lookups = 0;
			s->misses = 0;
			s->tlb_victim = 0;
			s->tlb_fills = 0;
		}
	}
	fflush(out);
}

static void marker(unsigned int vcpu, void *udata)
{
	if (udata == &start_addr) {
		counting = true;
	} else if (counting) {
		counting = false;
		dump();
	}
}

/*
 * QEMU 7.2's x86 translator ends a block before an instruction, other than
 * the first, that would cross into the next page: it drops the code it
 * generated for it, but the plugin's list keeps the instruction, with only
 * the bytes read before the page's end. That instruction is not executed in
 * this block (the next block starts with it), so it is not counted here: it
 * starts on another page than the block, or its bytes do not decode.
 */
static bool phantom(const struct qemu_plugin_tb *tb, size_t n)
{
	struct qemu_plugin_insn *insn;
	bool bad;
	char *d;

	if (n < 2)
		return false;
	insn = qemu_plugin_tb_get_insn(tb, n - 1);
	if (qemu_plugin_insn_vaddr(insn) >> 12 != qemu_plugin_tb_vaddr(tb) >> 12)
		return true;
	d = qemu_plugin_insn_disas(insn);
	/* QEMU's own disassembler prints what it cannot decode as ".byte" */
	bad = !d || !strncmp(d + strspn(d, " "), ".byte", 5);
	free(d);
	return bad;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct slot *s;
	struct tbinst *t = malloc(sizeof(*t));

	if (!t)
		abort();
	if (phantom(tb, n)) {
		n--;
		if (counting)
			phantoms++;
	}
	s = lookup(qemu_plugin_tb_vaddr(tb), n);
	if (counting)
		translations++;
	t->slot = s;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, t);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);

		qemu_plugin_register_vcpu_mem_cb(insn, mem_access,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, s);

		if (i == n - 1) {
			char *d = qemu_plugin_insn_disas(insn);

			s->end = d ? classify(d) : END_OTHER;
			free(d);
		}

		if (va == start_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker,
				QEMU_PLUGIN_CB_NO_REGS, &start_addr);
		else if (va == stop_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker,
				QEMU_PLUGIN_CB_NO_REGS, &stop_addr);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	if (out)
		fclose(out);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
			int argc, char **argv)
{
	const char *path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "start=", 6))
			start_addr = strtoull(argv[i] + 6, NULL, 16);
		else if (!strncmp(argv[i], "stop=", 5))
			stop_addr = strtoull(argv[i] + 5, NULL, 16);
		else if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
	}
	if (!start_addr || !stop_addr || !path) {
		fprintf(stderr, "insnprof: start=, stop= and out= are needed\n");
		return -1;
	}
	out = fopen(path, "w");
	slots = calloc(SLOTS, sizeof(*slots));
	if (!out || !slots)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
