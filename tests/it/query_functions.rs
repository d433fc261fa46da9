//! `network_query`'s temporal values and its mathematical and string functions:
//! hand-checked answers through the library, the errors for bad arguments, and
//! the bounds (years, durations, string sizes) answered with an error, never a
//! panic.

use networks_mcp::network::Network;
use networks_mcp::query::{self, QueryError};
use serde_json::{Map, Value, json};

/// The one row of `RETURN ...` on an empty network.
fn row(q: &str) -> Vec<Value> {
    let net = Network::new();
    let answer = query::run(&net, q, &Map::new()).unwrap_or_else(|e| panic!("{q}: {e}"));
    assert_eq!(answer.len(), 1, "{q}");
    answer.row_json(&net, 0)
}

fn one(q: &str) -> Value {
    row(q).remove(0)
}

fn error(q: &str) -> QueryError {
    let net = Network::new();
    match query::run(&net, q, &Map::new()) {
        Ok(_) => panic!("{q} should fail"),
        Err(e) => e,
    }
}

#[test]
fn temporal_values_parse_and_print_as_cypher_writes_them() {
    assert_eq!(one("RETURN date('2015-W30-2')"), json!("2015-07-21"));
    assert_eq!(one("RETURN date('2015202')"), json!("2015-07-21"));
    assert_eq!(one("RETURN localtime('214032.142')"), json!("21:40:32.142"));
    assert_eq!(one("RETURN time('2140-02')"), json!("21:40-02:00"));
    assert_eq!(
        one("RETURN datetime('2015-07-21T21:40:32.142+0100')"),
        json!("2015-07-21T21:40:32.142+01:00")
    );
    assert_eq!(
        one("RETURN datetime('2015-07-21T21:40:32.142[Europe/Stockholm]')"),
        json!("2015-07-21T21:40:32.142+02:00[Europe/Stockholm]")
    );
    assert_eq!(one("RETURN duration('P5M1.5D')"), json!("P5M1DT12H"));
    assert_eq!(one("RETURN duration('P0.75M')"), json!("P22DT19H51M49.5S"));
    assert_eq!(
        one("RETURN duration({seconds: -60, milliseconds: -1})"),
        json!("PT-1M-0.001S")
    );
    assert_eq!(
        one("RETURN toString(date({year: 1984, week: 10, dayOfWeek: 3}))"),
        json!("1984-03-07")
    );
    assert_eq!(
        one("RETURN datetime.fromepochmillis(237821673987)"),
        json!("1977-07-15T13:34:33.987Z")
    );
}

#[test]
fn temporal_values_select_truncate_and_measure() {
    assert_eq!(
        one("WITH date('1984-11-11') AS d RETURN date({date: d, year: 28})"),
        json!("0028-11-11")
    );
    assert_eq!(
        one(
            "RETURN time({time: datetime({year: 1984, month: 10, day: 11, hour: 12, timezone: 'Europe/Stockholm'}), timezone: '+05:00'})"
        ),
        json!("16:00+05:00")
    );
    assert_eq!(
        one("RETURN date.truncate('millennium', date('2017-10-11'), {day: 2})"),
        json!("2000-01-02")
    );
    assert_eq!(
        one(
            "RETURN localtime.truncate('millisecond', localtime('12:31:14.645876123'), {nanosecond: 2})"
        ),
        json!("12:31:14.645000002")
    );
    assert_eq!(
        one("RETURN duration.between(date('1984-10-11'), date('2015-06-24'))"),
        json!("P30Y8M13D")
    );
    assert_eq!(
        one(
            "RETURN duration.inSeconds(localdatetime('2014-07-21T21:40:36.143'), localdatetime('2014-07-21T21:40:36.142'))"
        ),
        json!("PT-0.001S")
    );
    assert_eq!(
        row(
            "WITH duration.between(localdatetime('2018-01-02T10:00:00.1'), localdatetime('2018-01-01T10:00:00.2')) AS d RETURN d.days, d.seconds, d.nanosecondsOfSecond"
        ),
        vec![json!(0), json!(-86400), json!(100_000_000)]
    );
    // The clock is read once per query.
    assert_eq!(
        one("RETURN duration.inSeconds(localtime(), localtime())"),
        json!("PT0S")
    );
}

#[test]
fn temporal_values_compare_order_and_add() {
    assert_eq!(
        row("WITH date('1980-12-24') AS x, date('1984-10-11') AS d RETURN x < d, x = d, x >= d"),
        vec![json!(true), json!(false), json!(false)]
    );
    assert_eq!(
        one("RETURN time('10:00+01:00') < time('09:35:14Z')"),
        json!(true)
    );
    // Durations are equal or not, never smaller.
    assert_eq!(one("RETURN duration('P1D') < duration('P2D')"), json!(null));
    assert_eq!(
        one("RETURN duration('PT11M') = duration({minutes: 12, seconds: -60})"),
        json!(true)
    );
    assert_eq!(
        one(
            "UNWIND [date('2001-01-01'), date('1999-01-01')] AS d WITH d ORDER BY d RETURN collect(toString(d))"
        ),
        json!(["1999-01-01", "2001-01-01"])
    );
    assert_eq!(
        one("RETURN date('2015-01-31') + duration('P1M')"),
        json!("2015-02-28")
    );
    assert_eq!(
        one("RETURN localtime('23:00') + duration('PT2H')"),
        json!("01:00")
    );
    assert_eq!(one("RETURN duration('P1D') * 1.5"), json!("P1DT12H"));
    assert_eq!(one("RETURN date('2015-07-21').week"), json!(30));
    assert_eq!(
        one("RETURN datetime('2015-07-21T21:40:32+01:00').epochSeconds"),
        json!(1_437_511_232)
    );
}

#[test]
fn temporal_errors_for_bad_arguments_and_bounds() {
    for q in [
        "RETURN date('2015-13-01')",
        "RETURN date({year: 2015, month: 2, day: 30})",
        "RETURN date({month: 2})",
        "RETURN localtime('25:00')",
        "RETURN datetime('2015-07-21T21:40[Mars/Olympus]')",
        "RETURN date(42)",
        "RETURN date({year: 2015, colour: 1})",
        "RETURN date.truncate('fortnight', date('2015-07-21'))",
        "RETURN localtime.truncate('year', localtime('12:00'))",
        "RETURN duration('P1X')",
        "RETURN duration({days: 'one'})",
        "RETURN duration({days: 1e300})",
        "RETURN date({year: 1000000000})",
        "RETURN date('2015-07-21').hour",
        "RETURN date({year: 999999999, month: 12, day: 31}) + duration({years: 1})",
        "RETURN duration({seconds: 900000000000000}) * 100000",
        "RETURN duration('P1D') / 0",
        "RETURN date('2015-07-21') + 1",
    ] {
        match error(q) {
            QueryError::Runtime { .. } => {}
            other => panic!("{q}: {other}"),
        }
    }
    // Null in, null out.
    assert_eq!(
        one("RETURN date(null), duration.between(null, date())"),
        json!(null)
    );
    assert!(
        error("RETURN date('2015', 1)")
            .to_string()
            .contains("argument")
    );
}

#[test]
fn mathematical_and_string_functions() {
    assert_eq!(one("RETURN round(e() * 1000)"), json!(2718.0));
    assert_eq!(one("RETURN pi() = acos(-1.0)"), json!(true));
    assert_eq!(one("RETURN exp(0)"), json!(1.0));
    assert_eq!(one("RETURN log10(1000)"), json!(3.0));
    assert_eq!(one("RETURN log(1)"), json!(0.0));
    assert_eq!(one("RETURN round(degrees(pi()))"), json!(180.0));
    assert_eq!(one("RETURN abs(radians(180) - pi()) < 1e-12"), json!(true));
    assert_eq!(one("RETURN haversin(0)"), json!(0.0));
    assert_eq!(
        one("RETURN abs(atan2(1, 1) * 4 - pi()) < 1e-12"),
        json!(true)
    );
    assert_eq!(one("RETURN sin(null)"), json!(null));
    assert_eq!(one("WITH rand() AS r RETURN 0 <= r AND r < 1"), json!(true));
    assert_eq!(one("RETURN left('hello', 2)"), json!("he"));
    assert_eq!(one("RETURN right('hello', 10)"), json!("hello"));
    assert_eq!(
        one("RETURN ltrim('  a  ') + '|' + rtrim('  a  ')"),
        json!("a  |  a")
    );
    for q in [
        "RETURN sin('x')",
        "RETURN left('hello', -1)",
        "RETURN right(1, 2)",
        "RETURN ltrim(1)",
    ] {
        assert!(matches!(error(q), QueryError::Runtime { .. }), "{q}");
    }
    // rand() is not constant: an aggregate refuses it.
    assert!(matches!(
        error("RETURN count(rand())"),
        QueryError::Syntax { .. }
    ));
    // The unknown-function error lists the new functions.
    let unknown = error("RETURN nosuch(1)").to_string();
    for name in ["haversin", "datetime.truncate", "duration.between", "left"] {
        assert!(unknown.contains(name), "{unknown}");
    }
}

/// a -> b -> c, a -> c; a and b are :X.
fn small() -> Network {
    use networks_mcp::network::{EdgeSpec, NodeSpec};
    let mut net = Network::new();
    for (id, labels) in [("a", "X"), ("b", "X"), ("c", "")] {
        let mut spec = NodeSpec::new(id);
        if !labels.is_empty() {
            spec = spec.with_attribute("labels", labels);
        }
        net.add_node_with(spec).unwrap();
    }
    for (s, t) in [("a", "b"), ("b", "c"), ("a", "c")] {
        net.add_edge_with(EdgeSpec::new(s, t)).unwrap();
    }
    net
}

fn column(net: &Network, q: &str) -> Vec<Value> {
    let answer = query::run(net, q, &Map::new()).unwrap_or_else(|e| panic!("{q}: {e}"));
    (0..answer.len())
        .map(|i| answer.row_json(net, i).remove(0))
        .collect()
}

#[test]
fn pattern_predicates_comprehensions_and_exists_subqueries() {
    let net = small();
    assert_eq!(
        column(&net, "MATCH (n) WHERE (n)-->(:X) RETURN n.id ORDER BY n.id"),
        vec![json!("a")]
    );
    assert_eq!(
        column(&net, "MATCH (n) WHERE NOT (n)-->() RETURN n.id"),
        vec![json!("c")]
    );
    assert_eq!(
        column(
            &net,
            "MATCH (n) WHERE exists((n)<--()) AND (n)-->() RETURN n.id"
        ),
        vec![json!("b")]
    );
    assert_eq!(
        column(
            &net,
            "MATCH (n) RETURN n.id, [(n)-->(m) | m.id] AS out ORDER BY n.id"
        )
        .len(),
        3
    );
    assert_eq!(
        column(
            &net,
            "MATCH (n {id: 'a'}) RETURN size([p = (n)-[*]->(m) WHERE m.id = 'c' | length(p)])"
        ),
        vec![json!(2)]
    );
    assert_eq!(
        column(
            &net,
            "MATCH (n) WHERE EXISTS { (n)-->(m) WHERE m.id = 'c' } RETURN n.id ORDER BY n.id"
        ),
        vec![json!("a"), json!("b")]
    );
    assert_eq!(
        column(
            &net,
            "MATCH (n) WHERE EXISTS { MATCH (n)-->(m) WITH n, count(*) AS k WHERE k = 2 RETURN true } RETURN n.id"
        ),
        vec![json!("a")]
    );
    assert_eq!(
        column(&net, "MATCH (n {id: 'a'}) RETURN COUNT { (n)-->() }"),
        vec![json!(2)]
    );
    // A pattern is a predicate only in a WHERE, and introduces no variables there.
    for q in [
        "MATCH (n) RETURN (n)-->()",
        "MATCH (n) RETURN size((n)-->())",
        "MATCH (n) WHERE (n)-->(m) RETURN n",
    ] {
        assert!(
            matches!(error_on(&net, q), QueryError::Syntax { .. }),
            "{q}"
        );
    }
}

fn error_on(net: &Network, q: &str) -> QueryError {
    match query::run(net, q, &Map::new()) {
        Ok(_) => panic!("{q} should fail"),
        Err(e) => e,
    }
}

#[test]
fn percentiles_standard_deviations_and_comparison_chains() {
    let q = |s: &str| one(&format!("UNWIND [10, 20, 30, 40] AS x RETURN {s}"));
    assert_eq!(q("percentileDisc(x, 0.5)"), json!(20));
    assert_eq!(q("percentileCont(x, 0.5)"), json!(25.0));
    assert_eq!(q("percentileCont(x, 1)"), json!(40.0));
    assert_eq!(q("percentileDisc(x, 0)"), json!(10));
    assert_eq!(q("round(stDevP(x) * 1000)"), json!(11180.0));
    assert_eq!(q("round(stDev(x) * 1000)"), json!(12910.0));
    assert_eq!(
        one("UNWIND [] AS x RETURN percentileCont(x, 0.5)"),
        json!(null)
    );
    assert!(matches!(
        error("UNWIND [1] AS x RETURN percentileCont(x, 1.5)"),
        QueryError::Runtime { .. }
    ));
    assert!(matches!(
        error("UNWIND [1] AS x RETURN percentileCont(x, x)"),
        QueryError::Syntax { .. }
    ));
    assert!(matches!(
        error("UNWIND ['a'] AS x RETURN stDev(x)"),
        QueryError::Runtime { .. }
    ));
    // `a < b < c` is `a < b AND b < c`.
    assert_eq!(one("RETURN 1 < 2 < 3"), json!(true));
    assert_eq!(one("RETURN 1 < 3 < 2"), json!(false));
    assert_eq!(one("RETURN 1 + 1 = 2 = 2.0"), json!(true));
    // NaN is neither smaller nor larger.
    assert_eq!(one("RETURN 0.0 / 0.0 > 1"), json!(false));
    assert_eq!(one("RETURN -9223372036854775808"), json!(i64::MIN));
    assert!(matches!(error("RETURN 1e400"), QueryError::Syntax { .. }));
    assert!(matches!(
        error("RETURN true AND 123"),
        QueryError::Syntax { .. }
    ));
    assert_eq!(one("RETURN range(0, -1, 2)"), json!([]));
}

#[test]
fn hostile_temporal_input_is_an_error_not_a_panic() {
    for q in [
        "RETURN date('-99999999999999999999999-01-01')",
        "RETURN date('+123456789012345-01-01')",
        "RETURN localtime('12:00:00.1234567890')",
        "RETURN duration('P99999999999999999999Y')",
        "RETURN duration('PT1.5.5S')",
        "RETURN datetime('2015-07-21T21:40+99:00')",
        "RETURN datetime('2015-07-21T21:40[Europe/Stockholm')",
        "RETURN date({year: 999999999, month: 12, day: 31}) + duration({days: 999999999999999}) + duration({days: 999999999999999})",
        "RETURN datetime({epochSeconds: 9223372036854775807})",
        "RETURN duration({days: 999999999999999}) * 1000000",
    ] {
        assert!(matches!(error(q), QueryError::Runtime { .. }), "{q}");
    }
}

#[test]
fn grouping_keys_order_by_after_aggregation_and_constant_limits() {
    let net = small();
    // ORDER BY after an aggregation reads a projected property or aggregate
    // by the text it was projected with.
    assert_eq!(
        column(
            &net,
            "MATCH (a)-->(b) RETURN a.id AS id, count(b) AS k ORDER BY a.id DESC"
        ),
        vec![json!("b"), json!("a")]
    );
    assert_eq!(
        column(
            &net,
            "MATCH (a)-->(b) WITH DISTINCT a.id AS id WHERE a.id = 'b' RETURN id"
        ),
        vec![json!("b")]
    );
    assert_eq!(
        column(
            &net,
            "MATCH (a)-->(b) RETURN a.id AS id, count(b) AS k ORDER BY a.id + count(b)"
        ),
        vec![json!("a"), json!("b")]
    );
    // An aggregate beside a variable that is not a grouping key is ambiguous.
    for q in [
        "MATCH (a)-->(b) RETURN a.id + count(b)",
        "MATCH (a)-->(b) RETURN a.id + b.id, a.id + b.id + count(*)",
        "MATCH (a)-->(b) RETURN count(b) AS k ORDER BY b.id",
    ] {
        assert!(
            matches!(error_on(&net, q), QueryError::Syntax { .. }),
            "{q}"
        );
    }
    assert_eq!(
        column(
            &net,
            "MATCH (a)-->(b) RETURN a.id, a.id + '/' + toString(count(b)) AS k ORDER BY k"
        ),
        vec![json!("a"), json!("b")]
    );
    assert_eq!(
        column(
            &net,
            "MATCH (n) RETURN n.id ORDER BY n.id LIMIT toInteger(ceil(1.7))"
        )
        .len(),
        2
    );
    assert!(matches!(
        error_on(&net, "MATCH (n) RETURN n LIMIT n.x"),
        QueryError::Syntax { .. }
    ));
}

#[test]
fn reduce_and_collect_subqueries() {
    assert_eq!(
        one("RETURN reduce(s = 0, x IN [1, 2, 3] | s + x)"),
        json!(6)
    );
    assert_eq!(
        one("RETURN reduce(s = '', x IN ['a', 'b'] | s + x)"),
        json!("ab")
    );
    assert_eq!(one("RETURN reduce(s = 0, x IN null | s + x)"), json!(null));
    assert_eq!(
        one("RETURN reduce(acc = [], x IN range(1, 3) | acc + [x * x])"),
        json!([1, 4, 9])
    );
    // The accumulator and the variable are gone after it.
    assert!(matches!(
        error("RETURN reduce(s = 0, x IN [1] | s + x) + s"),
        QueryError::Syntax { .. }
    ));
    // A string grown past the bound is an error, not a long answer.
    assert!(matches!(
        error(
            "RETURN size(reduce(s = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', x IN range(1, 20) | s + s))"
        ),
        QueryError::Limit { .. }
    ));
    let net = small();
    assert_eq!(
        column(
            &net,
            "MATCH (n {id: 'a'}) RETURN COLLECT { MATCH (n)-->(m) RETURN m.id }"
        ),
        vec![json!(["b", "c"])]
    );
    assert!(matches!(
        error_on(
            &net,
            "MATCH (n) RETURN COLLECT { MATCH (n)-->(m) RETURN m.id, n.id }"
        ),
        QueryError::Syntax { .. }
    ));
}

#[test]
fn a_subquery_in_order_by_keeps_the_projected_items() {
    let net = small();
    assert_eq!(
        column(
            &net,
            "MATCH (a)-->(b) WITH DISTINCT a.id AS id ORDER BY COUNT { MATCH (x)-->(y) RETURN y } DESC, a.id DESC RETURN id"
        ),
        vec![json!("b"), json!("a")]
    );
}

#[test]
fn explain_and_profile_plan_the_new_expressions() {
    let net = small();
    for q in [
        "EXPLAIN MATCH (n) WHERE (n)-->() AND EXISTS { (n)<--() } RETURN n.id, [(n)-->(m) | m.id], date('2015-07-21')",
        "PROFILE MATCH (n) WHERE (n)-->() RETURN reduce(s = 0, x IN [1, 2] | s + x), COUNT { (n)-->() }",
    ] {
        let answer = query::run(&net, q, &Map::new()).unwrap_or_else(|e| panic!("{q}: {e}"));
        assert!(!answer.is_empty(), "{q}");
    }
}
