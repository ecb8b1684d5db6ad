int main(void)
{
    printf("hello %d\n", 42);
    return 0;
}
