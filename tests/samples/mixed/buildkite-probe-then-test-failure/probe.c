#include <zstd.h>
int main(void) { return ZSTD_versionNumber() > 0 ? 0 : 1; }
