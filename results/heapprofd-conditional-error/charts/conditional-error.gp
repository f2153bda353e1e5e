# heapprofd: error of a profiled allocation (solid: conditional MAPE; dashed: document)
# allocsim chart "conditional-error" from ../metrics.csv; data: conditional-error.dat.
# Re-render inside this directory with: gnuplot conditional-error.gp
if (!exists('png_file')) png_file = 'conditional-error.png'
if (!exists('svg_file')) svg_file = 'conditional-error.svg'
set encoding utf8
set datafile separator '\t'
set title 'heapprofd:'."\n".'error of a profiled allocation (solid: conditional MAPE; dashed: document)' font ',15'
set xlabel 'allocation size S'
set logscale x 2
set xrange [14894.545454545454:5767168]
set xtics ('16 KiB' 16384, '32 KiB' 32768, '64 KiB' 65536, '128 KiB' 131072, '256 KiB' 262144, '512 KiB' 524288, '1 MiB' 1048576, '2 MiB' 2097152, '4 MiB' 4194304)
set ylabel 'E[ |estimate − S| / S  given ≥ 1 sample ]'
set yrange [0:200]
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside top right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set style line 4 lc rgb '#CC79A7' lw 2 pt 12 ps 1.5
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'conditional-error.dat' index 0 using 1:2:3 with yerrorbars ls 1 title 'T = 32 KiB', \
     'conditional-error.dat' index 1 using 1:2 with lines ls 1 notitle, \
     'conditional-error.dat' index 8 using 1:2 with lines ls 1 dt 2 notitle, \
     'conditional-error.dat' index 2 using 1:2:3 with yerrorbars ls 2 title 'T = 128 KiB', \
     'conditional-error.dat' index 3 using 1:2 with lines ls 2 notitle, \
     'conditional-error.dat' index 9 using 1:2 with lines ls 2 dt 2 notitle, \
     'conditional-error.dat' index 4 using 1:2:3 with yerrorbars ls 3 title 'T = 512 KiB', \
     'conditional-error.dat' index 5 using 1:2 with lines ls 3 notitle, \
     'conditional-error.dat' index 10 using 1:2 with lines ls 3 dt 2 notitle, \
     'conditional-error.dat' index 6 using 1:2:3 with yerrorbars ls 4 title 'T = 2 MiB', \
     'conditional-error.dat' index 7 using 1:2 with lines ls 4 notitle, \
     'conditional-error.dat' index 11 using 1:2 with lines ls 4 dt 2 notitle, \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'heapprofd code, E[error | ≥ 1 sample], Monte Carlo (bars: ±2 SE)', \
     NaN with lines lw 2 lc rgb 'black' title 'ideal Poisson sampler: E[error | ≥ 1 sample] (allocsim)', \
     NaN with lines lw 2 dt 2 lc rgb 'black' title 'document''s chart: MAPE − exp(−S/T) = P(≥ 1 sample) × solid line'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
