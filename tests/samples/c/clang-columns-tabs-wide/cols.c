const char *s = "héllo"; int x = undefined_a;
	int y = undefined_b;
const char *t = "日本"; int z = undefined_c;
