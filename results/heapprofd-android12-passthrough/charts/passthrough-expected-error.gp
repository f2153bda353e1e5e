# heapprofd pass-through: expected error (MAPE) around the old and the new cutoff (T = 128 KiB)
# allocsim chart "passthrough-expected-error" from ../metrics.csv; data: passthrough-expected-error.dat.
# Re-render inside this directory with: gnuplot passthrough-expected-error.gp
if (!exists('png_file')) png_file = 'passthrough-expected-error.png'
if (!exists('svg_file')) svg_file = 'passthrough-expected-error.svg'
set encoding utf8
set datafile separator '\t'
set title 'heapprofd pass-through:'."\n".'expected error (MAPE) around the old and the new cutoff (T = 128 KiB)' font ',15'
set xlabel 'allocation size S'
set xrange [0:786432]
set xtics ('0 B' 0, '128 KiB' 131072, '256 KiB' 262144, '384 KiB' 393216, '512 KiB' 524288, '640 KiB' 655360, '768 KiB' 786432)
set ylabel 'E|estimate − S| / S'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set arrow from 131072, graph 0 to 131072, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'old cutoff S ≥ T' at 131072, graph 0.03 left rotate by 90 offset -1, 0 front
set arrow from 603607, graph 0 to 603607, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'new cutoff (4.6 T)' at 603607, graph 0.03 left rotate by 90 offset -1, 0 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'passthrough-expected-error.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'heapprofd before Android 12', \
     'passthrough-expected-error.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'heapprofd Android 12+', \
     'passthrough-expected-error.dat' index 5 using 1:2 with lines ls 3 title 'ideal Poisson', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title 'closed form, no pass-through'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
