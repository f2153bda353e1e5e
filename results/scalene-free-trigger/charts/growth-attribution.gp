# Scalene: line B's growth as its records give it, next to a line A that allocates a bytes and frees them
# allocsim chart "growth-attribution" from ../metrics.csv; data: growth-attribution.dat.
# Re-render inside this directory with: gnuplot growth-attribution.gp
if (!exists('png_file')) png_file = 'growth-attribution.png'
if (!exists('svg_file')) svg_file = 'growth-attribution.svg'
set encoding utf8
set datafile separator '\t'
set title 'Scalene:'."\n".'line B''s growth as its records give it, next to a line A that allocates a bytes and frees them' font ',15'
set xlabel 'bytes a that line A allocates and frees each iteration'
set logscale x 2
set xrange [930.9090909090909:4613734.4]
set xtics ('1 KiB' 1024, '2 KiB' 2048, '4 KiB' 4096, '8 KiB' 8192, '16 KiB' 16384, '32 KiB' 32768, '64 KiB' 65536, '128 KiB' 131072, '256 KiB' 262144, '512 KiB' 524288, '1 MiB' 1048576, '2 MiB' 2097152, '4 MiB' 4194304)
set ylabel 'line B''s net growth reported / true'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom left opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set label 'derived by hand' at 1024, 99.9 left offset 0, -2 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4096, 99.9 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8192, 99.9 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 8576, 50.490855999999994 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 12288, 50.315928 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 16384, 50.122904 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 24576, 49.736856 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 31424, 49.414144 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 31488, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 40000, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 65536, 0 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 262144, 0 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1048576, 0 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4194304, 0 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'growth-attribution.dat' index 0 using 1:2 with linespoints ls 1 lw 1 title 'Scalene, W = 1 MiB, b = 40000 B', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
