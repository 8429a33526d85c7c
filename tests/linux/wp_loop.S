// A static Linux program for perf's hardware watchpoints in the guest (tests/linux): wp_store
// writes the doubleword `watched` 1000 times, then the program exits. `watched` is the first
// datum of .data, which the build places at 0x420000 (-Wl,-Tdata), so the guest's commands name
// it by address: perf stat -e mem:0x420000:w counts exactly 1000.
.global _start
.type _start, %function
_start:
    adr x1, watched
    mov x0, #1000
.global wp_store
.type wp_store, %function
wp_store:
    str x0, [x1]
    subs x0, x0, #1
    b.ne wp_store
    mov x0, #0
    mov x8, #93                 // exit
    svc #0

.data
.balign 8
.global watched
watched:
    .quad 0
