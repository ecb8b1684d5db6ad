use strict;
use warnings;
use Test::More tests => 3;
use lib 'lib';
use Shop::Cart;

my $cart = Shop::Cart->new->add('tea', 350, 2)->add('cake', 420);

is(Shop::Cart->new->count, 0, 'starts empty');
is($cart->count, 3, 'counts the quantities');
is(Shop::Cart::format_price($cart->total), '11.20 EUR', 'totals the prices');
