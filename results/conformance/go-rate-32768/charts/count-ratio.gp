# go: sampled allocations per site, real / model (200 runs)
# allocsim chart "count-ratio" from ../sites.csv; data: count-ratio.dat.
# Re-render inside this directory with: gnuplot count-ratio.gp
if (!exists('png_file')) png_file = 'count-ratio.png'
if (!exists('svg_file')) svg_file = 'count-ratio.svg'
set encoding utf8
set datafile separator '\t'
set title 'go: sampled allocations per site, real / model (200 runs)' font ',15'
set xlabel 'model mean of sampled allocations per run'
set logscale x 10
set format x '10^{%L}'
set ylabel 'real mean / model mean (log scale)'
set logscale y 10
set format y '%g'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set label 'startup' at 71.97584669079104, 0.9978347362628387 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'count-ratio.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'real go (bars: ±2 SE)', \
     'count-ratio.dat' index 1 using 1:2 with lines ls 1 title 'model (go)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
