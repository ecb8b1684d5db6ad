use strict;
use warnings;
use Test::More tests => 4;

sub parse { my ($s) = @_; return $s =~ /^(\w+): (.*)$/ ? { level => $1, text => $2 } : undef }

my $e = parse("error: disk full");
is($e->{level}, "error", "an error line is read as an error");
is($e->{text}, "disk full", "not ok when the text is lost");
ok(!defined parse("all fine"), "a line without a level is not a failure");
# TODO: failures are counted elsewhere
is(scalar(grep { !defined } map { parse($_) } ("warning: x", "fatal: y")), 0, "0 failures, no errors");
