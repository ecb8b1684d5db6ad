int total(int *xs, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) sum += xs[i];
  return totl;
}
