# sqlite3, jemalloc: relative bias of the whole profile, per-sample unbiasing vs sum-then-unbias
# allocsim chart "sum-then-unbias-total" from ../metrics.csv; data: sum-then-unbias-total.dat.
# Re-render inside this directory with: gnuplot sum-then-unbias-total.gp
if (!exists('png_file')) png_file = 'sum-then-unbias-total.png'
if (!exists('svg_file')) svg_file = 'sum-then-unbias-total.svg'
set encoding utf8
set datafile separator '\t'
set title 'sqlite3, jemalloc:'."\n".'relative bias of the whole profile, per-sample unbiasing vs sum-then-unbias' font ',15'
set xlabel 'sampling interval R'
set logscale x 2
set xrange [3723.6363636363635:576716.8]
set xtics ('4 KiB' 4096, '8 KiB' 8192, '16 KiB' 16384, '32 KiB' 32768, '64 KiB' 65536, '128 KiB' 131072, '256 KiB' 262144, '512 KiB' 524288)
set ylabel 'relative bias'
set format y '%g%%'
set grid back lc rgb '#d4d4d4' lw 1
set border lw 1.2
set key inside bottom right opaque box lw 1 samplen 2.5 spacing 1.15
set bars 0.6
set style line 1 lc rgb '#0072B2' lw 2 pt 7 ps 0.75
set style line 2 lc rgb '#D55E00' lw 2 pt 4 ps 1.3
set style line 3 lc rgb '#009E73' lw 2 pt 9 ps 0.9
set style line 4 lc rgb '#CC79A7' lw 2 pt 12 ps 1.5
set arrow from graph 0, first 0 to graph 1, first 0 nohead dt 2 lw 1.5 lc rgb '#444444' back
set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' background rgb 'white'
set output png_file
plot 'sum-then-unbias-total.dat' index 0 using 1:2:3 with yerrorlines ls 1 lw 1 title 'bytes, per-sample weights summed', \
     'sum-then-unbias-total.dat' index 2 using 1:2:3 with yerrorlines ls 2 lw 1 title 'bytes, summed then unbiased by the mean sample size', \
     'sum-then-unbias-total.dat' index 4 using 1:2:3 with yerrorlines ls 3 lw 1 title 'bytes, per-sample weights summed (live at the peak)', \
     'sum-then-unbias-total.dat' index 6 using 1:2:3 with yerrorlines ls 4 lw 1 title 'bytes, summed then unbiased by the mean sample size (live at the peak)', \
     NaN with points pt 7 ps 0.75 lc rgb 'black' title 'Monte Carlo (bars: ±2 SE)'
set terminal svg size 1100,700 dynamic enhanced font 'DejaVu Sans,12' background rgb 'white'
set output svg_file
replot
set output
