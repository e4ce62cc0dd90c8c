//! Simple regular expressions over integer values, compiled to an
//! [`Automaton`] (Thompson's construction, then the subset construction).

use std::collections::HashMap;

use super::regular::Automaton;
use crate::ids::Value;
use crate::ModelError;

/// The most states the subset construction may create.
const MAX_DFA_STATES: usize = 100_000;
/// The most nodes a pattern may expand to (after `{n,m}` copies).
const MAX_NODES: usize = 200_000;
/// The most values one class range `[a-b]` may name.
const MAX_RANGE: i64 = 1 << 16;

#[derive(Debug, Clone)]
enum Node {
    /// One of these values.
    Set(Vec<Value>),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Star(Box<Node>),
    /// `n` to `m` copies (`None`: unbounded).
    Repeat(Box<Node>, usize, Option<usize>),
}

fn err(reason: String) -> ModelError {
    ModelError::Invalid {
        constraint: "regular",
        reason,
    }
}

struct Parser<'s> {
    s: &'s [u8],
    at: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.at < self.s.len() && (self.s[self.at] as char).is_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.at).copied()
    }

    fn fail<T>(&self, what: &str) -> Result<T, ModelError> {
        Err(err(format!(
            "regular expression: {what} at character {}",
            self.at + 1
        )))
    }

    fn int(&mut self) -> Result<i64, ModelError> {
        self.skip_ws();
        let start = self.at;
        if self.s.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        let digits = self.at;
        while self.at < self.s.len() && self.s[self.at].is_ascii_digit() {
            self.at += 1;
        }
        if self.at == digits {
            self.at = start;
            return self.fail("expected a number");
        }
        let text = std::str::from_utf8(&self.s[start..self.at]).expect("ASCII");
        match text.parse::<i64>() {
            Ok(v) if Value::try_from(v).is_ok() => Ok(v),
            _ => {
                self.at = start;
                self.fail("a value out of the i32 range")
            }
        }
    }

    fn alt(&mut self) -> Result<Node, ModelError> {
        let mut arms = vec![self.concat()?];
        while self.peek() == Some(b'|') {
            self.at += 1;
            arms.push(self.concat()?);
        }
        Ok(if arms.len() == 1 {
            arms.pop().expect("one arm")
        } else {
            Node::Alt(arms)
        })
    }

    fn concat(&mut self) -> Result<Node, ModelError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == b'|' || c == b')' {
                break;
            }
            items.push(self.repeat()?);
        }
        Ok(Node::Concat(items))
    }

    fn repeat(&mut self) -> Result<Node, ModelError> {
        let mut node = self.atom()?;
        loop {
            match self.peek() {
                Some(b'*') => {
                    self.at += 1;
                    node = Node::Star(Box::new(node));
                }
                Some(b'+') => {
                    self.at += 1;
                    node = Node::Repeat(Box::new(node), 1, None);
                }
                Some(b'?') => {
                    self.at += 1;
                    node = Node::Repeat(Box::new(node), 0, Some(1));
                }
                Some(b'{') => {
                    self.at += 1;
                    let n = self.count()?;
                    let m = if self.peek() == Some(b',') {
                        self.at += 1;
                        if self.peek() == Some(b'}') {
                            None
                        } else {
                            Some(self.count()?)
                        }
                    } else {
                        Some(n)
                    };
                    if self.peek() != Some(b'}') {
                        return self.fail("expected '}'");
                    }
                    self.at += 1;
                    if m.is_some_and(|m| m < n) {
                        return self.fail("a repetition {n,m} with m < n");
                    }
                    node = Node::Repeat(Box::new(node), n, m);
                }
                _ => return Ok(node),
            }
        }
    }

    fn count(&mut self) -> Result<usize, ModelError> {
        let v = self.int()?;
        if !(0..=MAX_NODES as i64).contains(&v) {
            return self.fail("a repetition count out of range");
        }
        Ok(v as usize)
    }

    fn atom(&mut self) -> Result<Node, ModelError> {
        match self.peek() {
            Some(b'(') => {
                self.at += 1;
                let inner = self.alt()?;
                if self.peek() != Some(b')') {
                    return self.fail("expected ')'");
                }
                self.at += 1;
                Ok(inner)
            }
            Some(b'[') => {
                self.at += 1;
                let mut set = Vec::new();
                loop {
                    match self.peek() {
                        Some(b']') => {
                            self.at += 1;
                            break;
                        }
                        Some(b',') => self.at += 1,
                        None => return self.fail("expected ']'"),
                        _ => {
                            let a = self.int()?;
                            // `a-b` right after a number is a range.
                            let b = if self.s.get(self.at) == Some(&b'-') {
                                self.at += 1;
                                self.int()?
                            } else {
                                a
                            };
                            if b < a || b - a >= MAX_RANGE {
                                return self.fail("an empty or too large range");
                            }
                            set.extend((a..=b).map(|v| v as Value));
                        }
                    }
                }
                if set.is_empty() {
                    return self.fail("an empty class");
                }
                set.sort_unstable();
                set.dedup();
                Ok(Node::Set(set))
            }
            Some(b')' | b'|' | b'*' | b'+' | b'?' | b'{' | b'}' | b']') => {
                self.fail("unexpected character")
            }
            Some(_) => Ok(Node::Set(vec![self.int()? as Value])),
            None => self.fail("unexpected end"),
        }
    }
}

/// A nondeterministic automaton under construction: per state, its
/// epsilon moves and its value moves.
#[derive(Default)]
struct Nfa {
    eps: Vec<Vec<u32>>,
    moves: Vec<Vec<(Value, u32)>>,
}

impl Nfa {
    fn state(&mut self) -> Result<u32, ModelError> {
        if self.eps.len() >= MAX_NODES {
            return Err(err(format!(
                "regular expression: more than {MAX_NODES} automaton states"
            )));
        }
        self.eps.push(Vec::new());
        self.moves.push(Vec::new());
        Ok((self.eps.len() - 1) as u32)
    }

    /// Adds `node` between two new states; returns them.
    fn build(&mut self, node: &Node) -> Result<(u32, u32), ModelError> {
        let (s, t) = (self.state()?, self.state()?);
        match node {
            Node::Set(vals) => {
                for &v in vals {
                    self.moves[s as usize].push((v, t));
                }
            }
            Node::Concat(items) => {
                let mut at = s;
                for item in items {
                    let (a, b) = self.build(item)?;
                    self.eps[at as usize].push(a);
                    at = b;
                }
                self.eps[at as usize].push(t);
            }
            Node::Alt(arms) => {
                for arm in arms {
                    let (a, b) = self.build(arm)?;
                    self.eps[s as usize].push(a);
                    self.eps[b as usize].push(t);
                }
            }
            Node::Star(inner) => {
                let (a, b) = self.build(inner)?;
                self.eps[s as usize].extend([a, t]);
                self.eps[b as usize].extend([a, t]);
            }
            Node::Repeat(inner, n, m) => {
                let mut at = s;
                for _ in 0..*n {
                    let (a, b) = self.build(inner)?;
                    self.eps[at as usize].push(a);
                    at = b;
                }
                match m {
                    None => {
                        let (a, b) = self.build(&Node::Star(inner.clone()))?;
                        self.eps[at as usize].push(a);
                        at = b;
                    }
                    Some(m) => {
                        for _ in *n..*m {
                            let (a, b) = self.build(inner)?;
                            self.eps[at as usize].extend([a, t]);
                            at = b;
                        }
                    }
                }
                self.eps[at as usize].push(t);
            }
        }
        Ok((s, t))
    }

    /// The epsilon closure of `set`, sorted.
    fn closure(&self, set: &mut Vec<u32>) {
        let mut seen: std::collections::HashSet<u32> = set.iter().copied().collect();
        let mut stack = set.clone();
        while let Some(q) = stack.pop() {
            for &r in &self.eps[q as usize] {
                if seen.insert(r) {
                    set.push(r);
                    stack.push(r);
                }
            }
        }
        set.sort_unstable();
    }
}

impl Automaton {
    /// The automaton of a regular expression over integer values.
    ///
    /// Syntax: a value is a decimal integer (`-` for negatives; separate
    /// adjacent values with spaces: `1 2` is two values, `12` one);
    /// `[1 3 5]` or `[1-3]` is one value of a set; `(…)` groups; `|`
    /// separates alternatives; `*`, `+`, `?`, `{n}`, `{n,}` and `{n,m}`
    /// repeat the item before them. Whitespace is otherwise ignored; the
    /// empty pattern accepts only the empty word.
    ///
    /// Fails with [`ModelError::Invalid`] naming the character where the
    /// pattern is malformed, or when the automaton grows past 100,000
    /// states.
    ///
    /// ```
    /// use csp_core::constraint::Automaton;
    /// // A nonogram line with clue [2, 1] as an expression.
    /// let a = Automaton::regex("0* 1{2} 0+ 1 0*").unwrap();
    /// assert!(a.accepts(&[0, 1, 1, 0, 0, 1]));
    /// assert!(!a.accepts(&[1, 1, 1]));
    /// let b = Automaton::regex("[1-3]+ (-1 | 7)?").unwrap();
    /// assert!(b.accepts(&[2, 3, -1]) && b.accepts(&[1]) && !b.accepts(&[7]));
    /// assert!(Automaton::regex("1 (2").is_err());
    /// ```
    pub fn regex(pattern: &str) -> Result<Automaton, ModelError> {
        let mut parser = Parser {
            s: pattern.as_bytes(),
            at: 0,
        };
        let node = parser.alt()?;
        if parser.peek().is_some() {
            return parser.fail("unexpected character");
        }
        let mut nfa = Nfa::default();
        let (start, accept) = nfa.build(&node)?;
        // Subset construction over the values the pattern names.
        let mut first = vec![start];
        nfa.closure(&mut first);
        let mut ids: HashMap<Vec<u32>, usize> = HashMap::new();
        let mut sets = vec![first.clone()];
        ids.insert(first, 0);
        let mut trans = Vec::new();
        let mut k = 0;
        while k < sets.len() {
            let mut by_value: std::collections::BTreeMap<Value, Vec<u32>> = Default::default();
            for &q in &sets[k] {
                for &(v, r) in &nfa.moves[q as usize] {
                    by_value.entry(v).or_default().push(r);
                }
            }
            for (v, mut target) in by_value {
                target.sort_unstable();
                target.dedup();
                nfa.closure(&mut target);
                let next = ids.len();
                let id = *ids.entry(target.clone()).or_insert(next);
                if id == next {
                    if sets.len() >= MAX_DFA_STATES {
                        return Err(err(format!(
                            "regular expression: more than {MAX_DFA_STATES} automaton states"
                        )));
                    }
                    sets.push(target);
                }
                trans.push((k, v, id));
            }
            k += 1;
        }
        let accepting: Vec<usize> = (0..sets.len())
            .filter(|&i| sets[i].binary_search(&accept).is_ok())
            .collect();
        Automaton::new(sets.len(), 0, &accepting, &trans)
    }
}
