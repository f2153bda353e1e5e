# AllocationTick as the GC codes it (running amount reset at each event): error of stack A
# allocsim chart "periodic-pattern-bias-reset" from ../metrics.csv; data: periodic-pattern-bias-reset.dat.
# Re-render inside this directory with: gnuplot periodic-pattern-bias-reset.gp
if (!exists('png_file')) png_file = 'periodic-pattern-bias-reset.png'
if (!exists('svg_file')) svg_file = 'periodic-pattern-bias-reset.svg'
set encoding utf8
set datafile separator '\t'
set title 'AllocationTick as the GC codes it (running amount reset at each event):'."\n".'error of stack A' font ',15'
set xlabel 'size B of the second object in the loop'
set xrange [0:1016]
set xtics ('0 B' 0, '128 B' 128, '256 B' 256, '384 B' 384, '512 B' 512, '640 B' 640, '768 B' 768, '896 B' 896)
set ylabel 'estimate of stack A / true bytes − 1'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'periodic-pattern-bias-reset.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'AllocationTick (GC code: reset)', \
     'periodic-pattern-bias-reset.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'randomized sampling', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
