# Rounded scaled counts of a one-allocation record (R = 512 KiB)
# allocsim chart "count-rounding" from ../metrics.csv; data: count-rounding.dat.
# Re-render inside this directory with: gnuplot count-rounding.gp
if (!exists('png_file')) png_file = 'count-rounding.png'
if (!exists('svg_file')) svg_file = 'count-rounding.svg'
set encoding utf8
set datafile separator '\t'
set title 'Rounded scaled counts of a one-allocation record (R = 512 KiB)' font ',15'
set xlabel 'allocation size s'
set logscale x 2
set xrange [59578.181818181816:4613734.4]
set xtics ('64 KiB' 65536, '128 KiB' 131072, '256 KiB' 262144, '512 KiB' 524288, '1 MiB' 1048576, '2 MiB' 2097152, '4 MiB' 4194304)
set ylabel 'relative bias of the count'
set yrange [-70:*]
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set style line 4 lc rgb '#CC79A7' lw 2 pt 12 ps 1.5
set style line 5 lc rgb '#E69F00' lw 2 pt 5 ps 0.75
set label 'derived (Go: truncation, V8: half up)' at 65536, -5.998 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 131072, -11.52 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 262144, -21.306 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 393216, -47.237 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 524288, -36.788 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 786432, -22.313 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1048576, -13.533999999999999 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1572864, -4.979 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 2097152, -1.8319999999999999 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4194304, -0.034 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 65536, 5.753 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 131072, 10.6 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 262144, 18.041 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 393216, 5.527 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 524288, 26.423999999999996 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 786432, -22.313 left offset 1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1048576, -13.533999999999999 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 1572864, -4.979 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 2097152, -1.8319999999999999 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set label '' at 4194304, -0.034 right offset -1.6, -0.6 point pt 6 ps 2.2 lw 2 lc rgb '#444444' front
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'count-rounding.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'go count, per-sample weights summed', \
     'count-rounding.dat' index 1 using 1:2 with lines ls 1 notitle, \
     'count-rounding.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'go count, merged per record then scaled (int64)', \
     'count-rounding.dat' index 3 using 1:2 with lines ls 2 notitle, \
     'count-rounding.dat' index 4 using 1:2:3 with yerrorbars ls 3 title 'v8 count, per-sample weights summed', \
     'count-rounding.dat' index 5 using 1:2 with lines ls 3 notitle, \
     'count-rounding.dat' index 6 using 1:2:3 with yerrorbars ls 4 title 'v8 count, rounded per record', \
     'count-rounding.dat' index 7 using 1:2 with lines ls 4 notitle, \
     'count-rounding.dat' index 8 using 1:2:3 with yerrorbars ls 5 title 'tcmalloc count, per-sample weights summed', \
     'count-rounding.dat' index 9 using 1:2 with lines ls 5 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title 'closed form'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
