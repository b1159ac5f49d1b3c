#!/usr/bin/env ruby
# SPDX-License-Identifier: GPL-2.0
# frozen_string_literal: true
#
# bench-page-pool's parser for lkp-tests: reads the results file that
# `run` printed (the bench_page_pool module's, doc/output.rst of the
# bench_page_pool project: formats 3 and 4), from the file named or from
# stdin, and prints one "key: value" line per test and figure:
#
#   TEST.UNIT_per_elem   the test's cost per element over its repetitions
#   TEST.UNIT_min        its cheapest repetition
#   TEST.ns_per_elem     the same in nanoseconds
#   TEST.ns_min
#
# UNIT is the block's clock: "instructions" (QEMU -icount counted them)
# or "cycles"; a test that skipped prints nothing.  A file of several
# loads (blocks) prints, per figure, the lower median of its loads.
#
# The file is read strictly, by the grammar of results.schema (its
# declarations are below, written by "make lkp" from the project's
# results.schema) and, where the project's strict reader is at hand
# (BENCH_COMPARE, or the one the package built), by
# "bench-compare --check" first.  Anything malformed is refused with one
# line on stderr, "FILE:LINE: why", and exit status 2: no key is ever
# printed from a file that is not whole.

LKP_BENCH_SCHEMA = <<~'SCHEMA'
  @results.schema@
SCHEMA

require 'open3'
require 'tempfile'

PROG = 'bench-page-pool parse'
U64_MAX = (2**64) - 1
MAX_LINE = 65_536
NAME_RE = /\A[A-Za-z0-9_-]{1,64}\z/
FIELD_RE = /\A([a-z_][a-z0-9_]*)=(.+)\z/m
PATHS = %w[cache ring allocator frag unknown].freeze
ENTERED_KINDS = %w[switch irq timer ipi nmi softirq smi].freeze
PROF_COUNTS = %w[insns loads stores atomics l1i_miss l1d_miss llc_miss].freeze
PROFILE_KEYS = %w[l1i l1d llc line].freeze

def refuse(where, why)
  warn "#{PROG}: #{where}: #{why}"
  exit 2
end

# The schema's declarations: kind => { key => [type, presence] }.
def load_schema
  schema = Hash.new { |h, k| h[k] = {} }
  LKP_BENCH_SCHEMA.each_line do |l|
    l = l.strip
    next if l.empty? || l.start_with?('#')

    kind, key, type, presence = l.split(/\s+/)
    refuse('the schema', "bad declaration #{l.inspect}") unless presence

    schema[kind][key] = [type, presence]
  end
  refuse('the schema', 'no declarations: made from results.schema by make lkp') if schema.empty?
  schema
end

SCHEMA_DECL = load_schema

def uint?(v, max = U64_MAX)
  v.match?(/\A[0-9]+\z/) && v.to_i <= max
end

def milli?(v, digits)
  v.match?(/\A[0-9]+\.[0-9]{#{digits}}\z/)
end

# A per-element value a double holds as written, within 2^-64 .. 2^64 - 1.
def exact_milli3?(v)
  return false unless milli?(v, 3)

  r = v.to_r
  return false if r.positive? && r < Rational(1, 2**64)
  return false if r > U64_MAX

  format('%.3f', v.to_f) == format('%.3f', r)
end

def names_list?(v)
  v.split(',', -1).all? { |n| n.match?(NAME_RE) }
end

def paths?(v)
  v == '-' || v.split(',', -1).all? { |p| PATHS.include?(p) }
end

def stat_sums?(v)
  v == '-' || v.split(',', -1).all? do |s|
    m = s.match(/\A([a-z_]+(?:\+[a-z_]+)*):([0-9]+)\z/)
    m && uint?(m[2])
  end
end

# What entered timed windows: kind:N,... or -
def entered?(v)
  v == '-' || v.split(',', -1).all? do |e|
    kind, sep, n = e.partition(':')
    ENTERED_KINDS.include?(kind) && !sep.empty? && uint?(n)
  end
end

def type_ok?(type, v)
  case type
  when 'name' then v.match?(NAME_RE)
  when 'name_or_dash' then v == '-' || v.match?(NAME_RE)
  when 'names_or_dash' then v == '-' || names_list?(v)
  when 'names' then names_list?(v)
  when 'uint' then uint?(v)
  when 'int' then v.match?(/\A-?[0-9]+\z/) && v.delete('-').to_i <= U64_MAX
  when 'uint_or_dash' then v == '-' || uint?(v)
  when 'word' then v.match?(/\A[a-z0-9_]+\z/)
  when 'dash' then v == '-'
  when 'milli2' then milli?(v, 2)
  when 'milli3' then exact_milli3?(v)
  when 'milli3_list' then v.split(',', -1).all? { |s| exact_milli3?(s) }
  when 'paths_or_dash' then paths?(v)
  when 'stat_sums' then stat_sums?(v)
  when 'entered' then entered?(v)
  when 'text' then !v.empty?
  when 'format' then v.match?(/\Abench_page_pool_simple [1-4]\z/)
  when 'clock' then %w[instructions cycles].include?(v)
  when 'accel' then %w[none kvm tcg other].include?(v)
  when 'yes_no' then %w[yes no].include?(v)
  when 'words' then v.split(' ', -1).all? { |w| w.match?(FIELD_RE) }
  when 'words_or_none' then v == 'none' || v.split(' ', -1).all? { |w| w.match?(FIELD_RE) }
  when 'end' then v.match?(/\Atests=(0|[1-9][0-9]*) skips=(0|[1-9][0-9]*)\z/)
  when 'uuid_or_unavailable'
    v == 'unavailable' || v.match?(/\A\h{8}-\h{4}-\h{4}-\h{4}-\h{12}\z/) && v == v.downcase
  else
    refuse('the schema', "type #{type} unknown to this parser")
  end
end

# The words of a test:, skip:, cpu:, failed:, profile:, prof: or prof_fn:
# line as fields; a field the schema types as text is the rest of it.
def fields_of(kind, value, where)
  fields = {}
  rest = value
  until rest.empty?
    word, sep, after = rest.partition(' ')
    m = word.match(FIELD_RE)
    refuse(where, "#{kind}: #{word.inspect} is not a field (key=value)") unless m
    key = m[1]
    refuse(where, "#{kind}: #{key}= given twice") if fields.key?(key)
    if SCHEMA_DECL[kind].dig(key, 0) == 'text'
      fields[key] = m[2] + sep + after
      break
    end
    refuse(where, "#{kind}: an empty field (two blanks)") if !sep.empty? && after.empty?
    fields[key] = m[2]
    rest = after
  end
  refuse(where, "#{kind}: no fields") if fields.empty?
  fields
end

def check_declared(kind, fields, where, name)
  SCHEMA_DECL[kind].each do |key, (type, presence)|
    v = fields[key]
    if v.nil?
      refuse(where, "#{kind} #{name}: no #{key}= (format 3 always has it: cut short?)") if presence == 'required'
      next
    end
    refuse(where, "#{kind} #{name}: #{key}=#{v} is not of type #{type}") unless type_ok?(type, v)
  end
end

# The per-element value written agrees with total / invoke_count within
# a unit of its last digit.
def check_per_elem(f, where)
  ic = f['invoke_count'].to_i
  refuse(where, "test #{f['name']}: invoke_count=0") if ic.zero?
  %w[cycles ns].each do |u|
    exact = Rational(f[u].to_i, ic)
    written = f["#{u}_per_elem"].to_r
    next if (written - exact).abs <= Rational(1, 1000)

    refuse(where, "test #{f['name']}: #{u}_per_elem=#{f["#{u}_per_elem"]} is not #{u}/invoke_count")
  end
  reps = f['reps'].to_i
  %w[cycles_samples ns_samples].each do |s|
    n = f[s].split(',', -1).size
    refuse(where, "test #{f['name']}: #{n} #{s} for reps=#{reps}") unless n == reps
  end
end

class Block
  attr_reader :line, :version, :tests, :order, :clock

  def initialize(line, version)
    @line = line
    @version = version
    @seen = {}
    @tests = {}
    @order = []
    @skips = 0
    @profile = nil
    @profs = {}
    @prof_line = {}
    @fns = {}
    @prof = nil
  end

  def header(key, value, where)
    decl = SCHEMA_DECL['line'][key]
    if decl
      refuse(where, "#{key}: line given twice in this block (also at line #{@seen[key]})") if @seen[key]
      @seen[key] = where.split(':').last
      v = decl[0] == 'text' ? value : value.gsub(/\A[ \t]+|[ \t]+\z/, '')
      refuse(where, "#{key}: #{value.inspect} is not of type #{decl[0]}") unless type_ok?(decl[0], v)
    end
    @clock = value if key == 'clock'
  end

  def test(f, where)
    check_declared('test', f, where, f['name'])
    refuse(where, "test #{f['name']}: after the block's prof: lines") unless @profs.empty?
    refuse(where, "test #{f['name']} given twice in this block") if @tests.key?(f['name'])
    check_per_elem(f, where)
    @tests[f['name']] = f
    @order << f['name']
  end

  def skip(f, where)
    check_declared('skip', f, where, f['name'])
    @skips += 1
  end

  def profile(f, where)
    refuse(where, 'profile: in a block of format 3') if @version < 4
    refuse(where, 'profile: given twice in this block') if @profile
    refuse(where, 'profile: after the prof: lines') unless @profs.empty?
    PROFILE_KEYS.each do |k|
      v = f[k] or refuse(where, "profile: no #{k}=")
      ok = k == 'line' ? v.match?(/\A[1-9][0-9]*\z/) : v.match?(/\A[1-9][0-9]*:[1-9][0-9]*\z/)
      refuse(where, "profile: #{k}=#{v}: SIZE:WAYS (line=BYTES), each above 0") unless ok
    end
    @profile = true
  end

  def counts(kind, f, where)
    PROF_COUNTS.each do |k|
      v = f[k] or refuse(where, "#{kind}: no #{k}=")
      refuse(where, "#{kind}: #{k}=#{v} is not a count of three decimals") unless
        milli?(v, 3) && v.delete('.').to_i <= (2**53) - 1
    end
  end

  def prof(f, where)
    refuse(where, 'prof: in a block of format 3') if @version < 4
    name = f['name'] or refuse(where, 'prof: no name=')
    refuse(where, "prof: name=#{name} is no test of this block") unless @tests.key?(name)
    refuse(where, "prof: test #{name} given twice") if @profs.key?(name)
    w = f['windows'] or refuse(where, 'prof: no windows=')
    refuse(where, "prof: windows=#{w} is not a whole number above 0") unless uint?(w) && w.to_i.positive?
    counts('prof', f, where)
    @profs[name] = f
    @prof_line[name] = where
    @fns[name] = {}
    @prof = name
  end

  def prof_fn(f, where)
    refuse(where, 'prof_fn: in a block of format 3') if @version < 4
    name = f['name'] or refuse(where, 'prof_fn: no name=')
    refuse(where, "prof_fn: test #{name} is not the prof: line's before it") unless name == @prof
    fn = f['fn'] or refuse(where, 'prof_fn: no fn=')
    refuse(where, "prof_fn: fn=#{fn} is not a kernel symbol") unless
      fn == '?' || fn.match?(/\A[A-Za-z_.$][A-Za-z0-9_.$]*(\[[A-Za-z0-9_-]+\])?\z/)
    refuse(where, "prof_fn: test #{name}: function #{fn} given twice") if @fns[name].key?(fn)
    counts('prof_fn', f, where)
    @fns[name][fn] = f
  end

  def finish(value, where)
    refuse(where, "format #{@version} block without a clock: line") unless @seen['clock']
    refuse(where, "format #{@version} block without an accel: line") unless @seen['accel']
    m = value.match(/\Atests=([0-9]+) skips=([0-9]+)\z/)
    refuse(where, "end: line says tests=#{m[1]}, the block has #{@tests.size} test: lines (cut short?)") unless
      m[1].to_i == @tests.size
    refuse(where, "end: line says skips=#{m[2]}, the block has #{@skips} skip: lines") unless m[2].to_i == @skips
    return unless @version == 4

    refuse(where, 'format 4 block without a profile: line') unless @profile
    @tests.each_key do |t|
      refuse(where, "test #{t} has no prof: line (format 4 profiles every test of its block)") unless @profs.key?(t)
      next if @fns[t].empty?

      PROF_COUNTS.each do |k|
        sum = @fns[t].values.sum { |f| f[k].delete('.').to_i }
        total = @profs[t][k].delete('.').to_i
        refuse(@prof_line[t], "prof: test #{t}: its functions' #{k} do not add up to the test's") if
          2 * (sum - total).abs > @fns[t].size
      end
    end
  end
end

# The input: the file named, or stdin kept in a temporary file (the
# project's reader reads files).
def input
  case ARGV.size
  when 0
    tmp = Tempfile.new('bench-page-pool')
    begin
      IO.copy_stream($stdin, tmp)
      tmp.flush
    rescue SystemCallError, IOError => e
      refuse('stdin', "cannot read it: #{e.message}")
    end
    [tmp.path, 'stdin', tmp]
  when 1
    refuse(ARGV[0], 'cannot read it') unless File.file?(ARGV[0]) && File.readable?(ARGV[0])
    [ARGV[0], ARGV[0], nil]
  else
    refuse('usage', 'parse [RESULTS_FILE] (default: stdin)')
  end
end

# The project's strict reader, where it is: BENCH_COMPARE, else the one
# the package built beside the benchmark.
def strict_reader(path, shown)
  reader = ENV.fetch('BENCH_COMPARE', '')
  if reader.empty?
    root = ENV.fetch('BENCHMARK_ROOT', '/lkp/benchmarks')
    reader = "#{root}/bench-page-pool/tools/compare/bench-compare"
    return unless File.executable?(reader)
  end
  refuse('BENCH_COMPARE', "#{reader}: not an executable") unless File.file?(reader) && File.executable?(reader)
  _out, err, st = Open3.capture3(reader, '--check', path)
  return if st.success?

  first = err.lines.first.to_s.chomp.sub(/\Abench-compare: /, '').gsub(path, shown)
  first = "#{shown}: bench-compare --check refused it (exit #{st.exitstatus})" if first.empty?
  first = "#{shown}: #{first}" unless first.start_with?("#{shown}:")
  warn "#{PROG}: #{first}"
  exit 2
end

def check_text(line, where)
  s = line.dup.force_encoding(Encoding::UTF_8)
  refuse(where, 'a byte that is not UTF-8') unless s.valid_encoding?
  bad = s.match(/[^\t[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]]/)
  refuse(where, format('a control or format character U+%04X', bad[0].ord)) if bad
  s
end

def read_blocks(path, shown)
  blocks = []
  block = nil
  ended = false
  begin
    data = File.binread(path)
  rescue SystemCallError, IOError => e
    refuse(shown, "cannot read it: #{e.message}")
  end
  refuse(shown, 'empty: no results') if data.empty?
  lines = data.split("\n", -1)
  cut = !data.end_with?("\n")
  lines.pop unless cut
  lines.each_with_index do |raw, i|
    where = "#{shown}:#{i + 1}"
    refuse(where, 'line cut short: no newline at its end') if cut && i == lines.size - 1
    refuse(where, 'line longer than the limit') if raw.bytesize > MAX_LINE
    line = check_text(raw.delete_suffix("\r"), where)
    next if line.match?(/\A[ \t]*\z/)

    m = line.match(/\A([a-z_]+):(?:[ \t](.*))?\z/m)
    refuse(where, 'not a "KEY: value" line') unless m
    key = m[1]
    value = m[2].to_s
    if key == 'format'
      refuse("#{shown}:#{block.line}", 'results block cut short: no end: line') if block && !ended
      v = value.match(/\Abench_page_pool_simple ([0-9])\z/)
      refuse(where, 'bad format line: expected "format: bench_page_pool_simple N"') unless v
      ver = v[1].to_i
      refuse(where, "unsupported results format version #{ver} (supported: 1 to 4)") unless ver.between?(1, 4)
      refuse(where, "format #{ver}: this parser reads formats 3 and 4, what run prints") if ver < 3
      block = Block.new(i + 1, ver)
      blocks << block
      ended = false
      next
    end
    refuse(where, "#{key}: line before any format: line (no results file)") unless block
    refuse(where, "#{key}: line after the block's end: line") if ended
    case key
    when 'test' then block.test(fields_of('test', value, where), where)
    when 'skip' then block.skip(fields_of('skip', value, where), where)
    when 'cpu', 'failed'
      f = fields_of(key, value, where)
      check_declared(key, f, where, f['name'])
    when 'profile' then block.profile(fields_of('profile', value, where), where)
    when 'prof' then block.prof(fields_of('prof', value, where), where)
    when 'prof_fn' then block.prof_fn(fields_of('prof_fn', value, where), where)
    when 'end'
      block.header(key, value, where)
      block.finish(value, where)
      ended = true
    else block.header(key, value, where)
    end
  end
  refuse(shown, 'no results block') if blocks.empty?
  refuse("#{shown}:#{block.line}", 'results block cut short: no end: line') unless ended
  clocks = blocks.map(&:clock).uniq
  refuse(shown, "loads of different clocks (#{clocks.join(', ')}) in one file") if clocks.size > 1
  blocks
end

def lower_median(values)
  values.sort_by(&:to_r)[(values.size - 1) / 2]
end

path, shown, _keep = input
strict_reader(path, shown)
blocks = read_blocks(path, shown)
unit = blocks.first.clock
names = blocks.flat_map(&:order).uniq
names.each do |name|
  loads = blocks.filter_map { |b| b.tests[name] }
  figures = {
    "#{unit}_per_elem" => loads.map { |f| f['cycles_per_elem'] },
    "#{unit}_min" => loads.map { |f| f['cycles_samples'].split(',').min_by(&:to_r) },
    'ns_per_elem' => loads.map { |f| f['ns_per_elem'] },
    'ns_min' => loads.map { |f| f['ns_samples'].split(',').min_by(&:to_r) }
  }
  figures.each { |fig, vals| puts "#{name}.#{fig}: #{lower_median(vals).sub(/\A0+(?=[0-9])/, '')}" }
end
