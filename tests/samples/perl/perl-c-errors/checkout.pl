#!/usr/bin/perl
use strict;
use warnings;
use lib 'lib';
use Shop::Cart;

my $cart = Shop::Cart->new->add('tea', 350, 2)->add('cake', 420);
print 'Total: ', Shop::Cart::format_price($cart->total), "\n";
