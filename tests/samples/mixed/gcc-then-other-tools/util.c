int scale(int x) {
    return x * factr;
}
