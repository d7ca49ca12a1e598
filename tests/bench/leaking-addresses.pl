#!/usr/bin/perl
# leaking-addresses.pl - the line matching of the kernel's
# scripts/leaking_addresses.pl (x86_64, 4-level paging) over files or
# stdin, for the benchmark: prints the number of lines that may leak.
use strict;
use warnings;
no warnings "portable";

my $addr = qr/\b(0x)?ffff[[:xdigit:]]{12}\b/;
my $n = 0;

sub false_positive {
	my ($m) = @_;
	return 1 if $m =~ /\b(0x)?(f|F){15}[0-9a-f]\b/ || $m =~ /\b(0x)?0{16}\b/;
	my $v = hex($m);
	return 1 if $v >= 0xffffffffff600000 && $v <= 0xffffffffff601000;
	return 0;
}

LINE: while (my $line = <>) {
	next if $line =~ /^Sig(Blk|Ign|Cgt):/;
	next if $line =~ /\bKEY=[[:xdigit:]]{9,14} [[:xdigit:]]{16} [[:xdigit:]]{16}\b/;
	while ($line =~ /($addr)/g) {
		if (!false_positive($1)) {
			$n++;
			next LINE;
		}
	}
}
print "$n\n";
