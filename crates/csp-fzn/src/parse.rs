//! The FlatZinc reader: text to [`Item`]s.
//!
//! A hand-written lexer and recursive-descent parser for the FlatZinc 2.x
//! grammar (the FlatZinc chapter of the MiniZinc handbook). We write it
//! rather than use the `flatzinc` crate so that every error carries the
//! line and column it was found at, which the crate's nom parser does not
//! report, and because the grammar is small (about 300 lines here).

use crate::ast::{Annotation, BaseType, Expr, Goal, IntSet, Item, Pos, Type};
use csp_text::TextError;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    /// Punctuation: `::`, `:`, `;`, `,`, `..`, `[`, `]`, `(`, `)`, `{`, `}`, `=`.
    Punct(&'static str),
    Eof,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Int(v) => format!("'{v}'"),
            Tok::Float(v) => format!("'{v}'"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Punct(p) => format!("'{p}'"),
            Tok::Eof => "the end of the input".into(),
        }
    }
}

const PUNCT: [&str; 12] = ["::", "..", ":", ";", ",", "[", "]", "(", ")", "{", "}", "="];

fn lex(text: &str) -> Result<Vec<(Tok, Pos)>, TextError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    let err = |line, col, msg: String| Err(TextError::new(line, col, msg));
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { line, column: col };
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if c == '%' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(chars[start..i].iter().collect()), pos));
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            if c == '-' {
                i += 1;
            }
            let hex = chars[i] == '0' && matches!(chars.get(i + 1), Some('x'));
            let oct = chars[i] == '0' && matches!(chars.get(i + 1), Some('o'));
            if hex || oct {
                i += 2;
            }
            let radix = if hex {
                16
            } else if oct {
                8
            } else {
                10
            };
            while i < chars.len() && chars[i].is_digit(radix) {
                i += 1;
            }
            // A float has a fraction (`1.5`, not the range `1..5`) or an exponent.
            let mut float = false;
            if radix == 10
                && chars.get(i) == Some(&'.')
                && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())
            {
                float = true;
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if radix == 10 && matches!(chars.get(i), Some('e' | 'E')) {
                let mut j = i + 1;
                if matches!(chars.get(j), Some('+' | '-')) {
                    j += 1;
                }
                if chars.get(j).is_some_and(|d| d.is_ascii_digit()) {
                    float = true;
                    i = j;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let s: String = chars[start..i].iter().collect();
            let tok = if float {
                match s.parse::<f64>() {
                    Ok(v) => Tok::Float(v),
                    Err(_) => return err(line, col, format!("malformed number '{s}'")),
                }
            } else {
                let (neg, digits) = match s.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, s.as_str()),
                };
                let digits = if radix == 10 { digits } else { &digits[2..] };
                match i128::from_str_radix(digits, radix)
                    .ok()
                    .map(|v| if neg { -v } else { v })
                    .and_then(|v| i64::try_from(v).ok())
                {
                    Some(v) => Tok::Int(v),
                    None => {
                        return err(line, col, format!("integer '{s}' does not fit in 64 bits"))
                    }
                }
            };
            out.push((tok, pos));
        } else if c == '"' {
            i += 1;
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None | Some('\n') => {
                        return err(line, col, "unterminated string".into());
                    }
                    Some('"') => break,
                    Some('\\') if i + 1 < chars.len() => {
                        s.push(chars[i + 1]);
                        i += 2;
                    }
                    Some(&ch) => {
                        s.push(ch);
                        i += 1;
                    }
                }
            }
            i += 1;
            out.push((Tok::Str(s), pos));
        } else {
            let rest: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            match PUNCT.iter().find(|p| rest.starts_with(**p)) {
                Some(p) => {
                    i += p.len();
                    out.push((Tok::Punct(p), pos));
                }
                None => return err(line, col, format!("unexpected character '{c}'")),
            }
        }
        col += i - start;
    }
    out.push((Tok::Eof, Pos { line, column: col }));
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, Pos)>,
    at: usize,
}

type R<T> = Result<T, TextError>;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.at].0
    }

    fn peek2(&self) -> &Tok {
        &self.toks[(self.at + 1).min(self.toks.len() - 1)].0
    }

    fn pos(&self) -> Pos {
        self.toks[self.at].1
    }

    fn bump(&mut self) -> Tok {
        let t = self.toks[self.at].0.clone();
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
        t
    }

    fn error<T>(&self, what: &str) -> R<T> {
        let p = self.pos();
        Err(TextError::new(
            p.line,
            p.column,
            format!("expected {what}, found {}", self.peek().describe()),
        ))
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }

    fn eat(&mut self, p: &str) -> bool {
        let yes = self.is(p);
        if yes {
            self.bump();
        }
        yes
    }

    fn expect(&mut self, p: &str) -> R<()> {
        if self.eat(p) {
            Ok(())
        } else {
            self.error(&format!("'{p}'"))
        }
    }

    fn expect_word(&mut self, w: &str) -> R<()> {
        if self.is_word(w) {
            self.bump();
            Ok(())
        } else {
            self.error(&format!("'{w}'"))
        }
    }

    fn ident(&mut self) -> R<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.error("a name"),
        }
    }

    fn int(&mut self) -> R<i64> {
        match *self.peek() {
            Tok::Int(v) => {
                self.bump();
                Ok(v)
            }
            _ => self.error("an integer"),
        }
    }

    fn item(&mut self) -> R<Item> {
        let pos = self.pos();
        if self.is_word("predicate") {
            self.bump();
            let name = self.ident()?;
            // Skip the parameter list: balanced parentheses.
            self.expect("(")?;
            let mut depth = 1;
            while depth > 0 {
                match self.bump() {
                    Tok::Punct("(") => depth += 1,
                    Tok::Punct(")") => depth -= 1,
                    Tok::Eof => return self.error("')'"),
                    _ => {}
                }
            }
            self.expect(";")?;
            return Ok(Item::Predicate { name, pos });
        }
        if self.is_word("constraint") {
            self.bump();
            let name = self.ident()?;
            self.expect("(")?;
            let args = self.list(")", Parser::expr)?;
            let anns = self.annotations()?;
            self.expect(";")?;
            return Ok(Item::Constraint {
                name,
                args,
                anns,
                pos,
            });
        }
        if self.is_word("solve") {
            self.bump();
            let anns = self.annotations()?;
            let goal = match self.ident() {
                Ok(w) if w == "satisfy" => Goal::Satisfy,
                Ok(w) if w == "minimize" => Goal::Minimize(self.expr()?),
                Ok(w) if w == "maximize" => Goal::Maximize(self.expr()?),
                _ => {
                    self.at -= 1;
                    return self.error("'satisfy', 'minimize' or 'maximize'");
                }
            };
            self.expect(";")?;
            return Ok(Item::Solve { anns, goal, pos });
        }
        let ty = self.ty()?;
        self.expect(":")?;
        let name = self.ident()?;
        let anns = self.annotations()?;
        let value = if self.eat("=") {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect(";")?;
        Ok(Item::Decl {
            ty,
            name,
            anns,
            value,
            pos,
        })
    }

    fn ty(&mut self) -> R<Type> {
        let mut array = None;
        if self.is_word("array") {
            self.bump();
            self.expect("[")?;
            let mut dims = Vec::new();
            loop {
                if self.is_word("int") {
                    // `array [int] of ...` (predicate parameters only).
                    self.bump();
                    dims.push((1, 0));
                } else {
                    let lo = self.int()?;
                    self.expect("..")?;
                    let hi = self.int()?;
                    dims.push((lo, hi));
                }
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("]")?;
            self.expect_word("of")?;
            array = Some(dims);
        }
        let var = self.is_word("var");
        if var {
            self.bump();
        }
        let base = match self.peek().clone() {
            Tok::Ident(w) if w == "bool" => {
                self.bump();
                BaseType::Bool
            }
            Tok::Ident(w) if w == "int" => {
                self.bump();
                BaseType::Int
            }
            Tok::Ident(w) if w == "float" => {
                self.bump();
                BaseType::Float
            }
            Tok::Ident(w) if w == "set" => {
                self.bump();
                self.expect_word("of")?;
                if self.is_word("int") {
                    self.bump();
                } else {
                    self.set_literal()?;
                }
                BaseType::SetOfInt
            }
            Tok::Float(_) => {
                self.bump();
                self.expect("..")?;
                match self.bump() {
                    Tok::Float(_) | Tok::Int(_) => BaseType::Float,
                    _ => {
                        self.at -= 1;
                        return self.error("a float");
                    }
                }
            }
            Tok::Int(_) | Tok::Punct("{") => BaseType::IntIn(self.set_literal()?),
            _ => return self.error("a type"),
        };
        Ok(Type { array, var, base })
    }

    /// `lo..hi` or `{a, b, ...}`.
    fn set_literal(&mut self) -> R<IntSet> {
        if self.eat("{") {
            let vs = self.list("}", Parser::int)?;
            return Ok(IntSet::Values(vs));
        }
        let lo = self.int()?;
        self.expect("..")?;
        let hi = self.int()?;
        Ok(IntSet::Range(lo, hi))
    }

    /// Items separated by commas up to `close` (consumed); a trailing comma is allowed.
    fn list<T>(&mut self, close: &str, mut f: impl FnMut(&mut Parser) -> R<T>) -> R<Vec<T>> {
        let mut out = Vec::new();
        while !self.eat(close) {
            out.push(f(self)?);
            if !self.eat(",") {
                self.expect(close)?;
                break;
            }
        }
        Ok(out)
    }

    fn annotations(&mut self) -> R<Vec<Annotation>> {
        let mut anns = Vec::new();
        while self.eat("::") {
            anns.push(self.annotation()?);
        }
        Ok(anns)
    }

    fn annotation(&mut self) -> R<Annotation> {
        let pos = self.pos();
        let name = self.ident()?;
        let args = if self.eat("(") {
            self.list(")", Parser::ann_expr)?
        } else {
            Vec::new()
        };
        Ok(Annotation { name, args, pos })
    }

    /// An annotation argument: an expression, or a nested annotation call.
    fn ann_expr(&mut self) -> R<Expr> {
        if matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek2(), Tok::Punct("(")) {
            return Ok(Expr::Call(self.annotation()?));
        }
        if self.eat("[") {
            return Ok(Expr::Array(self.list("]", Parser::ann_expr)?));
        }
        self.expr()
    }

    fn expr(&mut self) -> R<Expr> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(w) if w == "true" || w == "false" => {
                self.bump();
                Ok(Expr::Bool(w == "true"))
            }
            Tok::Ident(w) => {
                self.bump();
                if self.eat("[") {
                    let i = self.int()?;
                    self.expect("]")?;
                    return Ok(Expr::Access(w, i, pos));
                }
                Ok(Expr::Ident(w, pos))
            }
            Tok::Int(v) => {
                self.bump();
                if self.eat("..") {
                    let hi = self.int()?;
                    return Ok(Expr::Set(IntSet::Range(v, hi)));
                }
                Ok(Expr::Int(v))
            }
            Tok::Float(v) => {
                self.bump();
                if self.eat("..") {
                    return match self.bump() {
                        Tok::Float(w) => Ok(Expr::FloatRange(v, w)),
                        Tok::Int(w) => Ok(Expr::FloatRange(v, w as f64)),
                        _ => {
                            self.at -= 1;
                            self.error("a float")
                        }
                    };
                }
                Ok(Expr::Float(v))
            }
            Tok::Str(s) => {
                self.bump();
                Ok(Expr::Str(s))
            }
            Tok::Punct("{") => Ok(Expr::Set(self.set_literal()?)),
            Tok::Punct("[") => {
                self.bump();
                Ok(Expr::Array(self.list("]", Parser::expr)?))
            }
            _ => self.error("an expression"),
        }
    }
}

/// Reads a FlatZinc model. Errors say `line:column: message`.
///
/// ```
/// use csp_fzn::{parse, ast::Item};
/// let items = parse("var 1..3: x :: output_var;\nsolve satisfy;\n").unwrap();
/// assert!(matches!(&items[0], Item::Decl { name, .. } if name == "x"));
/// let e = parse("var 1..3: x\nsolve satisfy;").unwrap_err();
/// assert_eq!(e.to_string(), "2:1: expected ';', found 'solve'");
/// ```
pub fn parse(text: &str) -> Result<Vec<Item>, TextError> {
    let mut p = Parser {
        toks: lex(text)?,
        at: 0,
    };
    let mut items = Vec::new();
    while *p.peek() != Tok::Eof {
        items.push(p.item()?);
    }
    Ok(items)
}
