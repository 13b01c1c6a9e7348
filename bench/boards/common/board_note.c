/* The board this image was built for, as an ELF note `.note.rtoslab` (owner "rtoslab", type 1,
 * the board id as a NUL-terminated string). The section is not allocated: no byte of flash or
 * RAM, no address and no cycle of the image moves. `rtoslab-vp run IMAGE` without --board runs
 * the image on this board (vp/src/elf.rs, board_note). Linked into every image through the
 * board library (--whole-archive); ld keeps notes under --gc-sections. */

#ifndef RTOSLAB_BOARD_ID
#error "RTOSLAB_BOARD_ID (the board id) is defined by bench/boards/CMakeLists.txt"
#endif

__asm__(".pushsection .note.rtoslab,\"\",%note\n"
        ".balign 4\n"
        ".long 8\n"                     /* namesz: "rtoslab" and its NUL */
        ".long 2f - 1f\n"               /* descsz: the board id and its NUL */
        ".long 1\n"                     /* type: the board id */
        ".asciz \"rtoslab\"\n"
        "1: .asciz \"" RTOSLAB_BOARD_ID "\"\n"
        "2: .balign 4\n"
        ".popsection\n");
