# jemalloc: variance added by one allocation of Z bytes, per-byte vs per-allocation sampling
# allocsim chart "variance-per-allocation" from ../metrics.csv; data: variance-per-allocation.dat.
# Re-render inside this directory with: gnuplot variance-per-allocation.gp
if (!exists('png_file')) png_file = 'variance-per-allocation.png'
if (!exists('svg_file')) svg_file = 'variance-per-allocation.svg'
set encoding utf8
set datafile separator '\t'
set title 'jemalloc:'."\n".'variance added by one allocation of Z bytes, per-byte vs per-allocation sampling' font ',15'
set xlabel 'allocation size Z (a jemalloc size class)'
set logscale x 2
set xrange [14.545454545454545:36044.8]
set xtics ('16 B' 16, '32 B' 32, '64 B' 64, '128 B' 128, '256 B' 256, '512 B' 512, '1 KiB' 1024, '2 KiB' 2048, '4 KiB' 4096, '8 KiB' 8192, '16 KiB' 16384, '32 KiB' 32768)
set ylabel 'variance of the bytes estimate (bytes²)'
set logscale y 10
set yrange [1000:*]
set format y '10^{%L}'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set label 'document: Z = R ln 2 adds Z²' at 2839, 8060000 left offset 1.5, -1.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set arrow from 4096, graph 0 to 4096, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'Z = R' at 4096, graph 0.03 left rotate by 90 offset -1, 0 front
set arrow from 256, graph 0 to 256, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'Z = R / N (mean size)' at 256, graph 0.03 left rotate by 90 offset -1, 0 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'variance-per-allocation.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'jemalloc: per-byte, R = 4 KiB', \
     'variance-per-allocation.dat' index 1 using 1:2 with lines ls 1 notitle, \
     'variance-per-allocation.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'per-allocation, N = 16', \
     'variance-per-allocation.dat' index 3 using 1:2 with lines ls 2 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title 'closed form'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
