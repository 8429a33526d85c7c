# vcd_pulses.awk - the pulses of one 1-bit signal of a VCD file (timescale 1 ps, as SystemC
# writes it): how many, and their shortest and longest widths. Usage:
#   awk -f vcd_pulses.awk -v signal=NAME FILE
$1 == "$var" && $5 == signal { id = $4 }
/^#/ { t = substr($0, 2) + 0 }
id != "" && $0 == "1" id { rise = t; high = 1 }
id != "" && $0 == "0" id && high {
    w = t - rise; n++; high = 0
    if (n == 1 || w < min) min = w
    if (w > max) max = w
}
END { printf "%s: %d pulses, widths %d-%d ps\n", signal, n, min, max }
