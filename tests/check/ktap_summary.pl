#!/usr/bin/perl
# Reads KTAP from a file with perl's TAP::Parser: the top level, then every indented subtest
# block on its own. Prints one line per parse: "<name> run=N passed=N failed=N skipped=N todo=N
# plan=good|bad errors=N".
use strict;
use warnings;
use TAP::Parser;

my ($file) = @ARGV;
open(my $in, '<', $file) or die "cannot read $file: $!";
my @lines = <$in>;
close($in);

sub summary {
    my ($name, $text) = @_;
    my $parser = TAP::Parser->new({ tap => $text });
    while (my $result = $parser->next) { }
    my @errors = $parser->parse_errors;
    printf "%s run=%d passed=%d failed=%d skipped=%d todo=%d plan=%s errors=%d\n", $name,
        $parser->tests_run, scalar($parser->passed), scalar($parser->failed),
        scalar($parser->skipped), scalar($parser->todo), ($parser->is_good_plan ? 'good' : 'bad'),
        scalar(@errors);
    print "error: $_\n" for @errors;
}

my $top = join('', grep { !/^  / } @lines);
summary('top', $top);
my ($name, $block) = (undef, '');
for my $line (@lines) {
    if ($line =~ /^  (.*\n)/) {
        my $inner = $1;
        $name = $1 if $inner =~ /^# Subtest: (\S+)/;
        $block .= $inner;
    } elsif ($block ne '') {
        summary("sub:$name", $block);
        ($name, $block) = (undef, '');
    }
}
