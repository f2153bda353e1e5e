# Bun.pprof.heap (T = 512 KiB): one site's bytes against its requested size
# allocsim chart "bin-rounding" from ../metrics.csv; data: bin-rounding.dat.
# Re-render inside this directory with: gnuplot bin-rounding.gp
if (!exists('png_file')) png_file = 'bin-rounding.png'
if (!exists('svg_file')) svg_file = 'bin-rounding.svg'
set encoding utf8
set datafile separator '\t'
set title 'Bun.pprof.heap (T = 512 KiB):'."\n".'one site''s bytes against its requested size' font ',15'
set xlabel 'requested size s (bytes)'
set logscale x 10
set format x '10^{%L}'
set ylabel 'relative bias of the site''s bytes (Bun''s alloc space)'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key outside right top opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set label '' at 64, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 65, 23.0736 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 80, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 81, 18.5153 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label 'derived (closed form)' at 1024, 0 left offset 1, -1.5 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1025, 24.820999999999998 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8192, 0 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8193, 24.5259 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 32768, 0 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 32769, 0 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 64, 88.4797 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 65, 131.96710000000002 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 80, 88.48230000000001 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 81, 123.3849 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1024, 88.4797 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1025, 135.2302 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8192, 88.4797 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8193, 134.8517 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 32768, 88.4797 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 32769, 94.0023 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'bin-rounding.dat' index 0 using 1:2 with linespoints ls 1 lw 1 title 'countdown restart: new', \
     'bin-rounding.dat' index 2 using 1:2 with linespoints ls 2 lw 1 title 'countdown restart: min', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
