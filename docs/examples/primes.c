/* primes.c - a program of the user's for the Linux guest (docs/platform.md, "Booting Linux"):
 * counts the primes below N (the first argument, 100000 by default) by trial division, and
 * prints how many. Built with the cross compiler and measured with perf in the guest:
 *     aarch64-linux-gnu-gcc -static -O2 -o primes primes.c
 * tests/linux runs it under perf stat in its boot (2262 primes below 20000). */
#include <stdio.h>
#include <stdlib.h>

static int is_prime(unsigned long n)
{
    if (n < 2)
        return 0;
    for (unsigned long d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    const unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;
    unsigned long count = 0;
    for (unsigned long i = 0; i < n; i++)
        count += is_prime(i);
    printf("%lu primes below %lu\n", count, n);
    return 0;
}
