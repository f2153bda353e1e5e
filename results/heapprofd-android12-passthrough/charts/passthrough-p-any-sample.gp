# heapprofd pass-through: P(≥ 1 sample) around the old and the new cutoff (T = 128 KiB)
# allocsim chart "passthrough-p-any-sample" from ../metrics.csv; data: passthrough-p-any-sample.dat.
# Re-render inside this directory with: gnuplot passthrough-p-any-sample.gp
if (!exists('png_file')) png_file = 'passthrough-p-any-sample.png'
if (!exists('svg_file')) svg_file = 'passthrough-p-any-sample.svg'
set encoding utf8
set datafile separator '\t'
set title 'heapprofd pass-through:'."\n".'P(≥ 1 sample) around the old and the new cutoff (T = 128 KiB)' font ',15'
set xlabel 'allocation size S'
set xrange [0:786432]
set xtics ('0 B' 0, '128 KiB' 131072, '256 KiB' 262144, '384 KiB' 393216, '512 KiB' 524288, '640 KiB' 655360, '768 KiB' 786432)
set ylabel 'P(≥ 1 sample)'
set yrange [0:102]
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set arrow from 131072, graph 0 to 131072, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'old cutoff S ≥ T' at 131072, graph 0.03 left rotate by 90 offset -1, 0 front
set arrow from 603607, graph 0 to 603607, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'new cutoff: P ≥ 99% (4.6 T)' at 603607, graph 0.03 left rotate by 90 offset -1, 9 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'passthrough-p-any-sample.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'heapprofd before Android 12', \
     'passthrough-p-any-sample.dat' index 1 using 1:2 with lines ls 1 notitle, \
     'passthrough-p-any-sample.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'heapprofd Android 12+', \
     'passthrough-p-any-sample.dat' index 3 using 1:2 with lines ls 2 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title 'closed form'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
