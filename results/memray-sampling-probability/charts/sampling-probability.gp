# Memray: probability that an allocation of S bytes is sampled
# allocsim chart "sampling-probability" from ../metrics.csv; data: sampling-probability.dat.
# Re-render inside this directory with: gnuplot sampling-probability.gp
if (!exists('png_file')) png_file = 'sampling-probability.png'
if (!exists('svg_file')) svg_file = 'sampling-probability.svg'
set encoding utf8
set datafile separator '\t'
set title 'Memray: probability that an allocation of S bytes is sampled' font ',15'
set xlabel 'allocation size S'
set xrange [0:5000]
set xtics ('0 B' 0, '1 KiB' 1024, '2 KiB' 2048, '3 KiB' 3072, '4 KiB' 4096)
set ylabel 'P(≥ 1 sample)'
set yrange [0:102]
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set style line 4 lc rgb '#CC79A7' lw 2 pt 12 ps 1.5
set label 'document: 95% at 1.5 KiB (T = 512 B)' at 1536, 95 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label 'document: 80% at 3.5 KiB (T = 2 KiB)' at 3584, 80 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'sampling-probability.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'T = 32 B', \
     'sampling-probability.dat' index 1 using 1:2 with lines ls 1 notitle, \
     'sampling-probability.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'T = 128 B', \
     'sampling-probability.dat' index 3 using 1:2 with lines ls 2 notitle, \
     'sampling-probability.dat' index 4 using 1:2:3 with yerrorbars ls 3 title 'T = 512 B', \
     'sampling-probability.dat' index 5 using 1:2 with lines ls 3 notitle, \
     'sampling-probability.dat' index 6 using 1:2:3 with yerrorbars ls 4 title 'T = 2 KiB', \
     'sampling-probability.dat' index 7 using 1:2 with lines ls 4 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Memray''s algorithm, Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title '1 − e^{−S/T} (ideal per-byte sampling)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
