#include <stdio.h>

int greet(void) {
	int total = 2;
	printf("totl: héllo 日本 %d\n", totl);
	return 0;
}
