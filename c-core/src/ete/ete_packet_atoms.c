/*
 * ete_packet_atoms.c - packing atoms into Atom packets (formats 1 to 6, one byte each), the
 * densest format first. Bit i of a pattern is the i-th oldest atom, 1 = E (taken), as the
 * decoder reads them (OpenCSD's ETMv4/ETE packet processor).
 */
#include "ete_packet_internal.h"

enum {
    ATOM_F1 = 0xF6,   /* 0b1111011x: one atom */
    ATOM_F2 = 0xD8,   /* 0b110110xx: two atoms */
    ATOM_F3 = 0xF8,   /* 0b11111xxx: three atoms */
    ATOM_F6_E = 0xC0, /* 0b110xxxxx: COUNT + 3 E atoms, then E (COUNT 0..20) */
    ATOM_F6_N = 0xE0, /* 0b111xxxxx: COUNT + 3 E atoms, then N */
    F6_MAX_E_RUN = 23 /* COUNT 20 */
};

/* Format 5 (0xD5..0xD7, 0xF5) and format 4 (0b110111xx): fixed patterns of five and four atoms,
 * the five-atom ones first; 0 when the oldest atoms are none of them. */
static uint8_t fixed_pattern(uint32_t atoms, unsigned count, unsigned *n)
{
    if (count >= 5) {
        *n = 5;
        switch (atoms & 0x1Fu) {
        case 0x1E: return 0xF5; /* N E E E E */
        case 0x00: return 0xD5; /* N N N N N */
        case 0x0A: return 0xD6; /* N E N E N */
        case 0x15: return 0xD7; /* E N E N E */
        default: break;
        }
    }
    if (count >= 4) {
        *n = 4;
        switch (atoms & 0xFu) {
        case 0x0E: return 0xDC; /* N E E E */
        case 0x00: return 0xDD; /* N N N N */
        case 0x0A: return 0xDE; /* N E N E */
        case 0x05: return 0xDF; /* E N E N */
        default: break;
        }
    }
    return 0;
}

unsigned ete_atom_packet(uint32_t atoms, unsigned count, uint8_t *header)
{
    /* The run of E atoms from the oldest (the trailing ones), at most count. */
    const uint32_t not_e = ~atoms;
    unsigned run = not_e ? (unsigned)__builtin_ctz(not_e) : 32u;
    if (run > count)
        run = count;
    /* Format 6: a run of at least three E atoms and the atom after it. */
    if (run >= 3 && run < count && run <= F6_MAX_E_RUN) {
        *header = (uint8_t)(ATOM_F6_N | (run - 3));
        return run + 1;
    }
    if (run >= 4) {
        const unsigned e = run - 1 > F6_MAX_E_RUN ? F6_MAX_E_RUN : run - 1;
        *header = (uint8_t)(ATOM_F6_E | (e - 3));
        return e + 1;
    }
    unsigned n = 0;
    const uint8_t fixed = fixed_pattern(atoms, count, &n);
    if (fixed) {
        *header = fixed;
        return n;
    }
    if (count >= 3) {
        *header = (uint8_t)(ATOM_F3 | (atoms & 0x7u));
        return 3;
    }
    if (count == 2) {
        *header = (uint8_t)(ATOM_F2 | (atoms & 0x3u));
        return 2;
    }
    *header = (uint8_t)(ATOM_F1 | (atoms & 0x1u));
    return 1;
}

static void put_oldest_atoms(pmt_ete_pkt_encoder *e, ete_stage *s)
{
    uint8_t header = 0;
    const unsigned n = ete_atom_packet(e->atoms, e->atom_count, &header);
    ete_put(e, s, header);
    e->atoms = n >= 32 ? 0 : e->atoms >> n;
    e->atom_count -= n;
}

void ete_put_atom(pmt_ete_pkt_encoder *e, ete_stage *s, bool taken)
{
    if (taken)
        e->atoms |= 1u << e->atom_count;
    e->atom_count++;
    if (e->atom_count >= PMT_ETE_PKT_MAX_PENDING_ATOMS)
        put_oldest_atoms(e, s);
}

void ete_flush_atoms(pmt_ete_pkt_encoder *e, ete_stage *s)
{
    while (e->atom_count > 0)
        put_oldest_atoms(e, s);
}
