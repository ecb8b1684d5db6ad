package Shop::Cart;

use strict;
use warnings;

sub new {
    my ($class) = @_;
    return bless { items => [] }, $class;
}

sub add {
    my ($self, $name, $cents, $quantity) = @_;
    push @{ $self->{items} }, { name => $name, cents => $cents, quantity => $quantity // 1 };
    return $self;
}

sub count {
    my ($self) = @_;
    my $n = 0;
    $n += $_->{quantity} for @{ $self->{items} };
    return $n;
}

sub total {
    my ($self) = @_;
    my $sum = 0;
    $sum += $_->{cents} * $_->{quantity} for @{ $self->{items} };
    return $sum;
}

sub format_price {
    my ($cents) = @_;
    return sprintf '%.2f EUR', $cents / 100;
}

1;
