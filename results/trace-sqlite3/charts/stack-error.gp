# sqlite3, T = 64 KiB: expected error of each stack's allocated bytes against its size
# allocsim chart "stack-error" from ../metrics.csv; data: stack-error.dat.
# Re-render inside this directory with: gnuplot stack-error.gp
if (!exists('png_file')) png_file = 'stack-error.png'
if (!exists('svg_file')) svg_file = 'stack-error.svg'
set encoding utf8
set datafile separator '\t'
set title 'sqlite3, T = 64 KiB: expected error of each stack''s allocated bytes against its size' font ',15'
set xlabel 'true bytes allocated by the stack'
set logscale x 2
set xrange [5.454545454545454:349184]
set xtics ('16 B' 16, '64 B' 64, '256 B' 256, '1 KiB' 1024, '4 KiB' 4096, '16 KiB' 16384, '64 KiB' 65536, '256 KiB' 262144)
set ylabel 'expected error (MAPE)'
set logscale y 10
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'stack-error.dat' index 0 using 1:2 with points ls 1 title 'poisson', \
     'stack-error.dat' index 2 using 1:2 with points ls 2 title 'jemalloc', \
     'stack-error.dat' index 4 using 1:2 with points ls 3 title 'tcmalloc', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
