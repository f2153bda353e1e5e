# dd-trace-rb: a site's alloc-samples against its allocation rate (one site, 10 s, 1 % sampling overhead)
# allocsim chart "clamp" from ../metrics.csv; data: clamp.dat.
# Re-render inside this directory with: gnuplot clamp.gp
if (!exists('png_file')) png_file = 'clamp.png'
if (!exists('svg_file')) svg_file = 'clamp.svg'
set encoding utf8
set datafile separator '\t'
set title 'dd-trace-rb:'."\n".'a site''s alloc-samples against its allocation rate (one site, 10 s, 1 % sampling overhead)' font ',15'
set xlabel 'objects allocated per second (E)'
set logscale x 10
set format x '%g'
set ylabel 'relative bias of alloc-samples'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set label '' at 10000, -0.006999999999999999 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 20000, -5.006 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 50000, -8.0044 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 100000, -9.006400000000001 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 200000, -9.5081 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 500000, -9.803199999999999 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 10000, -0.624 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 20000, -5.2785 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 50000, -8.4168 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 100000, -9.9711 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label 'derived (replay of the C)' at 200000, -54.495000000000005 left offset 2, 0 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 500000, -81.798 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'clamp.dat' index 0 using 1:2 with linespoints ls 1 lw 1 title 'each sample takes 10000 ns', \
     'clamp.dat' index 2 using 1:2 with linespoints ls 2 lw 1 title 'each sample takes 1000000 ns', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
