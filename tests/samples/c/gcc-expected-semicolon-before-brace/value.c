/* cJSON's parse_value: the ';' of 'return true' dropped before the block's '}';
   true is a macro, so gcc puts its caret on the '}' of the next line */
#define true ((int)1)
int is_true(const char *s)
{
    if (s[0] == 't')
    {
        return true
    }
    return 0;
}
