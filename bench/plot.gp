# gnuplot -e "data='DIR/scaling.dat'; output='docs/performance-scaling.png'" bench/plot.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1000,650 font "sans,10"
} else {
  set terminal png size 1000,650
}
set output output
set title "Whole-process time against tree size (medians; perf net of the namespace entry)"
set xlabel "files in the sysfs tree"
set ylabel "ms (log scale)"
set logscale y
set logscale x
set grid
set key outside right top
set datafile missing "NaN"
plot data using 1:2 with linespoints lw 2 title "pmuencode (one event)", \
     data using 1:3 with linespoints lw 2 title "pmuls --json", \
     data using 1:4 with linespoints lw 2 title "pmucheck --jobs 1", \
     data using 1:5 with linespoints lw 2 title "pmucheck --jobs 2", \
     data using 1:6 with linespoints lw 2 dt 2 title "perf stat -e (one event)", \
     data using 1:7 with linespoints lw 2 dt 2 title "perf list pmu", \
     data using 1:8 with linespoints lw 1 dt 3 title "floor: one event", \
     data using 1:9 with linespoints lw 1 dt 3 title "floor: full catalog", \
     data using 1:10 with linespoints lw 1 dt 3 title "floor: list only"
