/* Console strings for every board, on top of the board's own board_putc(). */
#include "board.h"

void board_write(const char *s, size_t n)
{
    while (n--)
        board_putc(*s++);
}

void board_puts(const char *s)
{
    while (*s)
        board_putc(*s++);
}
