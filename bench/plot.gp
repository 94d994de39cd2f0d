# make bench: one bar a row of the table, patched/stock on a log2 scale
# (below the line: patched faster). Written by bench/table.awk's dat= file.
# usage: gnuplot -e "dat='ratios.dat'; out='ratios.png'; title='...'" bench/plot.gp
#   ylab='...'   the y axis's label (make bench-aa: B / A of one kernel)
set terminal pngcairo size 1800,760 font "sans,11" background "white"
set output out
set title title noenhanced
set key off
set grid ytics
set style fill solid 0.85 border -1
set boxwidth 0.8
set xrange [0:*]
set yrange [-1.5:1.5]
set ytics ("1/2" -1, "1/1.41" -0.5, "1" 0, "1.41" 0.5, "2" 1)
if (!exists("ylab")) ylab = "patched / stock, median time per operation (log scale)"
set ylabel ylab noenhanced
set xtics rotate by 90 right font ",7" nomirror noenhanced
set bmargin 14
# Groups (a), (b), (c) and the control rows in four colours; a bar off the
# scale is clipped.
plot dat using 1:(log($2) / log(2)):($4 == 1 ? 0x4477aa : $4 == 2 ? 0x228833 : $4 == 3 ? 0xcc6677 : 0x888888):xtic(3) \
	with boxes lc rgb variable, \
	0 with lines lc rgb "black" lw 1.5
