# vcd_edges.awk - the first pulse of each of some 1-bit signals of a VCD file (timescale 1 ps, as
# SystemC writes it), measured from a reference time: where it rises, from the reference, and
# where it falls, from the rise. The reference is the first line of the first file, a time in
# seconds as `perf script -F time --ns` prints a sample's ("    0.000110909:"); the VCD is the
# second file. Usage:
#   awk -f vcd_edges.awk -v signals="pmuirq cpu_irq" TIMES FILE.vcd
# prints, for each signal in order, "NAME: rise at sample + N ns, fall at rise + M ns" (N may be
# negative; "no pulse" when the signal never rises and falls).
BEGIN { count = split(signals, wanted, " ") }
NR == 1 {
    gsub(/[ :]/, "")
    split($0, part, ".")
    reference = (part[1] * 1000000000 + part[2]) * 1000 # the 9 digits after the point are ns
    next
}
FNR == NR { next }
$1 == "$var" {
    for (i = 1; i <= count; i++)
        if ($5 == wanted[i])
            name[$4] = wanted[i]
}
/^#/ { t = substr($0, 2) + 0 }
/^[01]/ {
    id = substr($0, 2)
    if (!(id in name))
        next
    s = name[id]
    if (substr($0, 1, 1) == "1" && !(s in rise))
        rise[s] = t
    else if (substr($0, 1, 1) == "0" && (s in rise) && !(s in fall))
        fall[s] = t
}
END {
    for (i = 1; i <= count; i++) {
        s = wanted[i]
        if (!(s in fall))
            printf "%s: no pulse\n", s
        else {
            d = (rise[s] - reference) / 1000
            sign = d < 0 ? "-" : "+"
            printf "%s: rise at sample %s %d ns, fall at rise + %d ns\n", s, sign, (d < 0 ? -d : d),
                   (fall[s] - rise[s]) / 1000
        }
    }
}
