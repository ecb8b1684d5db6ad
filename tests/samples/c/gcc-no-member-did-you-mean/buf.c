#include <stddef.h>

/* cJSON's parse_buffer: a field misspelt where it is read */
typedef struct
{
    const unsigned char *content;
    size_t length;
    size_t offset;
} parse_buffer;

int at_end(const parse_buffer *input_buffer)
{
    return input_buffer->offset >= input_buffer->lenth;
}
