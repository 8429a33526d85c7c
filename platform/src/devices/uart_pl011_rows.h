// uart_pl011_rows.h - the rows of the PL011's register table (uart_pl011.cpp), shared by its
// register file and its receive side.
#ifndef PMTRACE_PLATFORM_UART_PL011_ROWS_H
#define PMTRACE_PLATFORM_UART_PL011_ROWS_H

namespace pmtrace::platform::pl011
{

enum row {
    DR,
    RSR_ECR,
    FR,
    ILPR,
    IBRD,
    FBRD,
    LCR_H,
    CR,
    IFLS,
    IMSC,
    RIS,
    MIS,
    ICR,
    DMACR,
    PERIPHID,
    PCELLID
};

} // namespace pmtrace::platform::pl011

#endif
