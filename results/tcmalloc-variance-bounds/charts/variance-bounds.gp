# tcmalloc: variance of the estimate of M = 64 MiB split into allocations of k bytes (T = 256 KiB)
# allocsim chart "variance-bounds" from ../metrics.csv; data: variance-bounds.dat.
# Re-render inside this directory with: gnuplot variance-bounds.gp
if (!exists('png_file')) png_file = 'variance-bounds.png'
if (!exists('svg_file')) svg_file = 'variance-bounds.svg'
set encoding utf8
set datafile separator '\t'
set title 'tcmalloc:'."\n".'variance of the estimate of M = 64 MiB split into allocations of k bytes (T = 256 KiB)' font ',15'
set xlabel 'allocation size k (M / k allocations)'
set logscale x 2
set xrange [14894.545454545454:73819750.4]
set xtics ('16 KiB' 16384, '32 KiB' 32768, '64 KiB' 65536, '128 KiB' 131072, '256 KiB' 262144, '512 KiB' 524288, '1 MiB' 1048576, '2 MiB' 2097152, '4 MiB' 4194304, '8 MiB' 8388608, '16 MiB' 16777216, '32 MiB' 33554432, '64 MiB' 67108864)
set ylabel 'Var[estimate of M] / (T M)'
set logscale y 10
set format y '10^{%L}'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'upper bound T M (allocations ≪ T; the ideal Poisson process for any k)' at graph 0.02, first 1 offset 0, 0.7 front
set arrow from graph 0, first 0.003906235098838806 to graph 1, first 0.003906235098838806 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'lower bound T² − T (one allocation of M bytes)' at graph 0.02, first 0.003906235098838806 offset 0, 0.7 front
set arrow from 262144, graph 0 to 262144, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444' back
set label 'k = T' at 262144, graph 0.03 left rotate by 90 offset -1, 0 front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'variance-bounds.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'tcmalloc, Monte Carlo (bars: ±2 SE)', \
     'variance-bounds.dat' index 1 using 1:2 with lines ls 1 title 'tcmalloc, closed form'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
