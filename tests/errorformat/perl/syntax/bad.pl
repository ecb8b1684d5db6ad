use strict;
my $x = ;
print $y;
