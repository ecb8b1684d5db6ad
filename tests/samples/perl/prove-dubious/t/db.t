use strict;
use warnings;
use Test::More;

my $dsn = $ENV{SHOP_DSN} or die "SHOP_DSN is not set\n";
ok($dsn, 'has a DSN');
done_testing;
