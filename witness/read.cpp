// Reading violation witnesses (witness.hpp): GraphML 1.0 and YAML 2.x, from siren or another
// tool. The XML and YAML readers are the small subsets witnesses use (elements, attributes,
// text, comments, CDATA, entities; YAML block and flow collections, plain and quoted
// scalars); anything else is an error naming the line.
#include "witness/witness.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace siren::witness {
namespace {

struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// --- XML -------------------------------------------------------------------------------------

struct XNode {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::vector<std::unique_ptr<XNode>> kids;
  std::string text;
  const XNode* child(const std::string& n) const {
    for (const auto& k : kids)
      if (k->name == n) return k.get();
    return nullptr;
  }
};

class XmlReader {
 public:
  explicit XmlReader(const std::string& s) : s_(s) {}

  std::unique_ptr<XNode> document() {
    skip_misc();
    if (!at("<")) fail("no XML element");
    auto root = element();
    skip_misc();
    if (i_ < s_.size()) fail("text after the root element");
    return root;
  }

 private:
  const std::string& s_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    unsigned line = 1;
    for (std::size_t j = 0; j < i_ && j < s_.size(); ++j) line += s_[j] == '\n';
    throw ParseError(fmt::format("not a GraphML witness: line {}: {}", line, what));
  }
  bool at(const char* p) const { return s_.compare(i_, std::char_traits<char>::length(p), p) == 0; }
  void skip_ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void skip_until(const char* end) {
    const auto j = s_.find(end, i_);
    if (j == std::string::npos) fail(std::string("missing ") + end);
    i_ = j + std::char_traits<char>::length(end);
  }
  void skip_misc() {  // whitespace, <?...?>, comments, <!DOCTYPE ...>
    for (;;) {
      skip_ws();
      if (at("<?")) skip_until("?>");
      else if (at("<!--")) skip_until("-->");
      else if (at("<!")) skip_until(">");
      else return;
    }
  }
  std::string name() {
    const std::size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || std::strchr("_-.:", s_[i_]))) ++i_;
    if (b == i_) fail("expected a name");
    return s_.substr(b, i_ - b);
  }
  std::string decode(const std::string& raw) const {
    std::string o;
    for (std::size_t j = 0; j < raw.size(); ++j) {
      if (raw[j] != '&') {
        o += raw[j];
        continue;
      }
      const auto semi = raw.find(';', j);
      if (semi == std::string::npos) fail("bad entity");
      const std::string e = raw.substr(j + 1, semi - j - 1);
      if (e == "amp") o += '&';
      else if (e == "lt") o += '<';
      else if (e == "gt") o += '>';
      else if (e == "quot") o += '"';
      else if (e == "apos") o += '\'';
      else if (!e.empty() && e[0] == '#') {
        unsigned long c = 0;
        try {
          c = e.size() > 1 && (e[1] == 'x' || e[1] == 'X') ? std::stoul(e.substr(2), nullptr, 16) : std::stoul(e.substr(1));
        } catch (const std::exception&) {
          fail("bad character reference &" + e + ";");
        }
        if (c < 0x80) o += static_cast<char>(c);
        else o += '?';
      } else {
        fail("unknown entity &" + e + ";");
      }
      j = semi;
    }
    return o;
  }
  std::unique_ptr<XNode> element() {
    ++i_;  // '<'
    auto n = std::make_unique<XNode>();
    n->name = name();
    for (;;) {
      skip_ws();
      if (at("/>")) {
        i_ += 2;
        return n;
      }
      if (at(">")) {
        ++i_;
        break;
      }
      const std::string a = name();
      skip_ws();
      if (!at("=")) fail("expected '=' after attribute " + a);
      ++i_;
      skip_ws();
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) fail("expected a quoted attribute value");
      const char q = s_[i_++];
      const auto end = s_.find(q, i_);
      if (end == std::string::npos) fail("unterminated attribute value");
      n->attrs[a] = decode(s_.substr(i_, end - i_));
      i_ = end + 1;
    }
    for (;;) {  // content
      if (i_ >= s_.size()) fail("element <" + n->name + "> is not closed");
      if (at("</")) {
        i_ += 2;
        if (name() != n->name) fail("mismatched closing tag for <" + n->name + ">");
        skip_ws();
        if (!at(">")) fail("expected '>'");
        ++i_;
        return n;
      }
      if (at("<!--")) {
        skip_until("-->");
      } else if (at("<![CDATA[")) {
        const std::size_t b = i_ + 9;
        skip_until("]]>");
        n->text += s_.substr(b, i_ - 3 - b);
      } else if (at("<?")) {
        skip_until("?>");
      } else if (at("<")) {
        n->kids.push_back(element());
      } else {
        const auto lt = s_.find('<', i_);
        const std::size_t end = lt == std::string::npos ? s_.size() : lt;
        n->text += decode(s_.substr(i_, end - i_));
        i_ = end;
      }
    }
  }
};

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

unsigned to_unsigned(const std::string& s, const std::string& what) {
  const std::string t = trim(s);
  if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos)
    throw ParseError(fmt::format("{} '{}' is not a number", what, t));
  return static_cast<unsigned>(std::stoul(t));
}

/// "\result == 5;" / "\result==-3" -> 5 / -3 (nullopt: another kind of assumption).
std::optional<std::int64_t> result_value(std::string s) {
  s = trim(s);
  while (!s.empty() && s.back() == ';') s = trim(s.substr(0, s.size() - 1));
  if (s.rfind("\\result", 0) != 0) return std::nullopt;
  s = trim(s.substr(7));
  if (s.rfind("==", 0) != 0) return std::nullopt;
  s = trim(s.substr(2));
  while (!s.empty() && (std::isalpha(static_cast<unsigned char>(s.back())))) s.pop_back();  // 5U, 5L
  if (s.size() > 2 && s.front() == '(' && s.back() == ')') s = trim(s.substr(1, s.size() - 2));
  if (s.empty() || s.size() > 20 || s.find_first_not_of("-0123456789") != std::string::npos || s.find('-', 1) != std::string::npos)
    return std::nullopt;
  try {
    return std::stoll(s);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

Property property_of(const std::string& spec) {
  if (spec.find("data-race") != std::string::npos) return Property::Race;
  if (spec.find("reach_error") != std::string::npos || spec.find("__VERIFIER_error") != std::string::npos)
    return Property::Reach;
  throw ParseError("unsupported specification '" + trim(spec) + "' (siren validates reach_error and data-race witnesses)");
}

Witness from_graphml(const std::string& text) {
  XmlReader r(text);
  const auto root = r.document();
  if (root->name != "graphml") throw ParseError("not a GraphML witness: the root element is <" + root->name + ">");
  std::map<std::string, std::string> key_name;  // key id -> attr.name
  std::map<std::string, std::string> defaults;  // attr.name -> default value
  const XNode* graph = nullptr;
  for (const auto& k : root->kids) {
    if (k->name == "key" && k->attrs.count("id")) {
      const std::string n = k->attrs.count("attr.name") ? k->attrs.at("attr.name") : k->attrs.at("id");
      key_name[k->attrs.at("id")] = n;
      if (const XNode* d = k->child("default")) defaults[n] = trim(d->text);
    }
    if (k->name == "graph" && !graph) graph = k.get();
  }
  if (!graph) throw ParseError("not a GraphML witness: no <graph>");
  auto data_of = [&](const XNode& n) {
    std::map<std::string, std::string> d;
    for (const auto& k : n.kids)
      if (k->name == "data" && k->attrs.count("key")) {
        const std::string& id = k->attrs.at("key");
        d[key_name.count(id) ? key_name[id] : id] = k->text;
      }
    return d;
  };
  Witness w;
  w.format = Format::GraphML;
  w.version = "1.0";
  const auto gd = data_of(*graph);
  auto get = [&](const std::map<std::string, std::string>& d, const std::string& k) {
    const auto it = d.find(k);
    return it == d.end() ? std::string() : trim(it->second);
  };
  if (const std::string t = get(gd, "witness-type"); t != "violation_witness")
    throw ParseError(t.empty() ? "not a violation witness: no witness-type" : "not a violation witness: witness-type " + t);
  w.property = property_of(get(gd, "specification"));
  w.program_file = get(gd, "programfile");
  w.program_hash = get(gd, "programhash");
  std::map<std::string, unsigned> ids;
  auto node_id = [&](const std::string& n) {
    auto [it, fresh] = ids.emplace(n, static_cast<unsigned>(ids.size()));
    if (fresh) {
      w.violation.push_back(false);
      w.sink.push_back(false);
    }
    return it->second;
  };
  bool has_entry = false;
  auto flag = [&](const std::map<std::string, std::string>& d, const std::string& k) {
    const std::string v = d.count(k) ? trim(d.at(k)) : (defaults.count(k) ? defaults[k] : "false");
    return v == "true";
  };
  for (const auto& k : graph->kids) {
    if (k->name != "node") continue;
    if (!k->attrs.count("id")) throw ParseError("GraphML witness: a node without id");
    const unsigned id = node_id(k->attrs.at("id"));
    const auto d = data_of(*k);
    if (flag(d, "isEntryNode")) {
      w.entry = id;
      has_entry = true;
    }
    if (flag(d, "isViolationNode")) w.violation[id] = true;
    if (flag(d, "isSinkNode")) w.sink[id] = true;
  }
  for (const auto& k : graph->kids) {
    if (k->name != "edge") continue;
    if (!k->attrs.count("source") || !k->attrs.count("target")) throw ParseError("GraphML witness: an edge without source or target");
    Edge e;
    e.from = node_id(k->attrs.at("source"));
    e.to = node_id(k->attrs.at("target"));
    const auto d = data_of(*k);
    if (const std::string s = get(d, "threadId"); !s.empty()) e.match.thread = to_unsigned(s, "threadId");
    if (const std::string s = get(d, "createThread"); !s.empty()) e.match.creates = to_unsigned(s, "createThread");
    if (const std::string s = get(d, "startline"); !s.empty()) e.match.line = to_unsigned(s, "startline");
    if (const std::string s = get(d, "originfile"); !s.empty()) e.match.file = base_name(s);
    if (const std::string s = get(d, "control"); !s.empty()) {
      if (s != "condition-true" && s != "condition-false") throw ParseError("GraphML witness: control '" + s + "'");
      e.match.branch = s == "condition-true";
    }
    if (const std::string s = get(d, "assumption"); !s.empty() && d.count("assumption.resultfunction"))
      e.match.result = result_value(s);
    w.edges.push_back(e);
  }
  w.nodes = static_cast<unsigned>(ids.size());
  if (!has_entry) throw ParseError("GraphML witness: no entry node");
  if (std::find(w.violation.begin(), w.violation.end(), true) == w.violation.end())
    throw ParseError("GraphML witness: no violation node");
  return w;
}

// --- YAML ------------------------------------------------------------------------------------

struct YNode {
  enum Kind { Scalar, Seq, Map } kind = Scalar;
  std::string scalar;
  std::vector<YNode> items;
  std::vector<std::pair<std::string, YNode>> map;
  const YNode* get(const std::string& k) const {
    for (const auto& [key, v] : map)
      if (key == k) return &v;
    return nullptr;
  }
};

class YamlReader {
 public:
  explicit YamlReader(const std::string& text) {
    std::size_t b = 0, no = 0;
    while (b <= text.size()) {
      const auto e = std::min(text.find('\n', b), text.size());
      std::string l = text.substr(b, e - b);
      ++no;
      b = e + 1;
      if (!l.empty() && l.back() == '\r') l.pop_back();
      if (l.find('\t') != std::string::npos && l.find_first_not_of(" \t") != std::string::npos &&
          l.find_first_not_of(' ') < l.size() && l[l.find_first_not_of(' ')] == '\t')
        fail(no, "a tab in the indentation");
      const std::string body = strip_comment(l);
      if (trim(body).empty() || trim(body) == "---" || trim(body) == "...") continue;
      const std::size_t ind = body.find_first_not_of(' ');
      lines_.push_back({ind, body.substr(ind), no});
      if (e == text.size()) break;
    }
  }
  YNode document() {
    if (lines_.empty()) fail(1, "empty document");
    YNode n = block(lines_[0].indent);
    if (pos_ < lines_.size()) fail(lines_[pos_].no, "unexpected indentation");
    return n;
  }

 private:
  struct Line {
    std::size_t indent;
    std::string text;
    std::size_t no;
  };
  std::vector<Line> lines_;
  std::size_t pos_ = 0;

  [[noreturn]] static void fail(std::size_t line, const std::string& what) {
    throw ParseError(fmt::format("not a YAML witness: line {}: {}", line, what));
  }
  static std::string strip_comment(const std::string& l) {
    char q = 0;
    for (std::size_t i = 0; i < l.size(); ++i) {
      const char c = l[i];
      if (q) {
        if (c == '\\' && q == '"') ++i;
        else if (c == q) q = 0;
      } else if (c == '"' || c == '\'') {
        q = c;
      } else if (c == '#' && (i == 0 || l[i - 1] == ' ')) {
        return l.substr(0, i);
      }
    }
    return l;
  }
  // Position of the ':' that ends a mapping key in `t` (npos: not a mapping entry).
  static std::size_t key_colon(const std::string& t) {
    char q = 0;
    int depth = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const char c = t[i];
      if (q) {
        if (c == '\\' && q == '"') ++i;
        else if (c == q) q = 0;
      } else if (c == '"' || c == '\'') {
        if (i == 0) q = c;
      } else if (c == '[' || c == '{') {
        if (i == 0) return std::string::npos;
        ++depth;
      } else if (c == ']' || c == '}') {
        --depth;
      } else if (c == ':' && depth == 0 && (i + 1 == t.size() || t[i + 1] == ' ')) {
        return i;
      }
    }
    return std::string::npos;
  }
  static std::string unquote(const std::string& raw, std::size_t line) {
    const std::string s = trim(raw);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') {
      std::string o;
      for (std::size_t i = 1; i + 1 < s.size(); ++i) {
        if (s[i] != '\\') {
          o += s[i];
          continue;
        }
        if (++i + 1 > s.size() - 1) fail(line, "bad escape");
        switch (s[i]) {
          case 'n': o += '\n'; break;
          case 't': o += '\t'; break;
          case '"': o += '"'; break;
          case '\\': o += '\\'; break;
          case '/': o += '/'; break;
          default: o += s[i];
        }
      }
      return o;
    }
    if (s.size() >= 2 && s.front() == '\'' && s.back() == '\'') {
      std::string o;
      for (std::size_t i = 1; i + 1 < s.size(); ++i) {
        o += s[i];
        if (s[i] == '\'' && s[i + 1] == '\'') ++i;
      }
      return o;
    }
    if (!s.empty() && (s.front() == '"' || s.front() == '\'')) fail(line, "unterminated quoted scalar");
    if (!s.empty() && (s.front() == '|' || s.front() == '>' || s.front() == '&' || s.front() == '*' || s.front() == '!'))
      fail(line, "unsupported YAML (block scalars, anchors, aliases, tags)");
    return s;
  }
  // A flow collection or a scalar, from the text after "key:" or "- ".
  static YNode inline_value(const std::string& raw, std::size_t line) {
    const std::string s = trim(raw);
    if (!s.empty() && (s.front() == '[' || s.front() == '{')) {
      std::size_t i = 0;
      YNode n = flow(s, i, line);
      while (i < s.size() && s[i] == ' ') ++i;
      if (i != s.size()) fail(line, "text after a flow collection");
      return n;
    }
    YNode n;
    n.scalar = unquote(s, line);
    return n;
  }
  static YNode flow(const std::string& s, std::size_t& i, std::size_t line) {
    auto ws = [&] {
      while (i < s.size() && s[i] == ' ') ++i;
    };
    auto scalar = [&](const char* stops) {
      ws();
      std::size_t b = i;
      if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
        const char q = s[i++];
        while (i < s.size() && s[i] != q) i += (s[i] == '\\' && q == '"') ? 2 : 1;
        if (i >= s.size()) fail(line, "unterminated quoted scalar");
        ++i;
      } else {
        while (i < s.size() && !std::strchr(stops, s[i])) ++i;
      }
      YNode n;
      n.scalar = unquote(s.substr(b, i - b), line);
      return n;
    };
    YNode n;
    const char open = s[i++];
    n.kind = open == '[' ? YNode::Seq : YNode::Map;
    const char close = open == '[' ? ']' : '}';
    for (;;) {
      ws();
      if (i >= s.size()) fail(line, "unterminated flow collection");
      if (s[i] == close) {
        ++i;
        return n;
      }
      if (n.kind == YNode::Seq) {
        n.items.push_back(s[i] == '[' || s[i] == '{' ? flow(s, i, line) : scalar(",]"));
      } else {
        const YNode k = scalar(":,}");
        ws();
        if (i >= s.size() || s[i] != ':') fail(line, "expected ':' in a flow mapping");
        ++i;
        ws();
        n.map.emplace_back(k.scalar, i < s.size() && (s[i] == '[' || s[i] == '{') ? flow(s, i, line) : scalar(",}"));
      }
      ws();
      if (i < s.size() && s[i] == ',') ++i;
    }
  }
  // The block starting at lines_[pos_], all of whose lines are indented by `indent`.
  YNode block(std::size_t indent) {
    YNode n;
    const bool seq = lines_[pos_].text == "-" || lines_[pos_].text.rfind("- ", 0) == 0;
    n.kind = seq ? YNode::Seq : YNode::Map;
    while (pos_ < lines_.size() && lines_[pos_].indent == indent) {
      Line& l = lines_[pos_];
      if (seq) {
        if (!(l.text == "-" || l.text.rfind("- ", 0) == 0)) fail(l.no, "expected '- ' in a sequence");
        const std::string rest = l.text.size() > 1 ? l.text.substr(2) : "";
        const std::size_t lead = rest.find_first_not_of(' ');
        if (lead == std::string::npos) {  // "-" alone: the item is the nested block
          ++pos_;
          if (pos_ >= lines_.size() || lines_[pos_].indent <= indent) fail(l.no, "empty sequence item");
          n.items.push_back(block(lines_[pos_].indent));
        } else if (key_colon(rest.substr(lead)) != std::string::npos) {
          // "- key: value": a mapping whose lines are indented like its first key
          l.indent = indent + 2 + lead;
          l.text = rest.substr(lead);
          n.items.push_back(block(l.indent));
        } else {
          n.items.push_back(inline_value(rest, l.no));
          ++pos_;
        }
      } else {
        const std::size_t c = key_colon(l.text);
        if (c == std::string::npos) fail(l.no, "expected 'key: value'");
        const std::string key = unquote(l.text.substr(0, c), l.no);
        const std::string rest = l.text.substr(c + 1);
        ++pos_;
        if (!trim(rest).empty()) {
          n.map.emplace_back(key, inline_value(rest, l.no));
        } else if (pos_ < lines_.size() && (lines_[pos_].indent > indent ||
                                            (lines_[pos_].indent == indent && lines_[pos_].text.rfind("- ", 0) == 0))) {
          n.map.emplace_back(key, block(lines_[pos_].indent));
        } else {
          n.map.emplace_back(key, YNode{});  // null
        }
      }
    }
    if (pos_ < lines_.size() && lines_[pos_].indent > indent) fail(lines_[pos_].no, "unexpected indentation");
    return n;
  }
};

const YNode& need(const YNode& n, const std::string& key, const std::string& where) {
  const YNode* v = n.kind == YNode::Map ? n.get(key) : nullptr;
  if (!v) throw ParseError("YAML witness: " + where + " has no '" + key + "'");
  return *v;
}

Match waypoint_match(const YNode& wp, bool& target, bool& follow) {
  if (wp.kind != YNode::Map) throw ParseError("YAML witness: a waypoint is not a mapping");
  const std::string type = need(wp, "type", "a waypoint").scalar;
  const std::string action = need(wp, "action", "a waypoint").scalar;
  if (action != "follow" && action != "avoid") throw ParseError("YAML witness: waypoint action '" + action + "'");
  follow = action == "follow";
  const YNode& loc = need(wp, "location", "a waypoint");
  Match m;
  m.file = base_name(need(loc, "file_name", "a waypoint's location").scalar);
  m.line = to_unsigned(need(loc, "line", "a waypoint's location").scalar, "line");
  if (const YNode* t = wp.get("thread_id")) m.thread = to_unsigned(t->scalar, "thread_id");
  const YNode* c = wp.get("constraint");
  const std::string value = c && c->get("value") ? c->get("value")->scalar : "";
  target = type == "target";
  if (type == "branching") {
    if (value != "true" && value != "false") throw ParseError("YAML witness: branching constraint '" + value + "'");
    m.branch = value == "true";
  } else if (type == "function_return") {
    m.result = result_value(value);
    if (!m.result) throw ParseError("YAML witness: function_return constraint '" + value + "' (siren reads \\result == N)");
  } else if (type == "target") {
    m.target = true;
  } else if (type == "assumption") {
    const std::string v = trim(value);
    if (v != "1" && v != "true" && v != "(1)")
      throw ParseError("YAML witness: assumption '" + value + "' (siren reads only trivially true assumptions)");
  } else if (type != "function_enter") {
    throw ParseError("YAML witness: waypoint type '" + type + "'");
  }
  return m;
}

Witness from_yaml(const std::string& text) {
  const YNode doc = YamlReader(text).document();
  if (doc.kind != YNode::Seq || doc.items.empty()) throw ParseError("not a YAML witness: not a list of entries");
  const YNode* entry = nullptr;
  for (const YNode& e : doc.items)
    if (e.kind == YNode::Map && e.get("entry_type") && e.get("entry_type")->scalar == "violation_sequence") {
      entry = &e;
      break;
    }
  if (!entry) throw ParseError("not a violation witness: no entry of type violation_sequence");
  const YNode& meta = need(*entry, "metadata", "the entry");
  Witness w;
  w.format = Format::Yaml;
  w.version = need(meta, "format_version", "metadata").scalar;
  if (w.version != "2.0" && w.version != "2.1" && w.version != "2.2")
    throw ParseError("YAML witness: format_version " + w.version + " (siren reads 2.0, 2.1 and 2.2)");
  const YNode& task = need(meta, "task", "metadata");
  w.property = property_of(need(task, "specification", "metadata.task").scalar);
  if (const YNode* files = task.get("input_files"); files && files->kind == YNode::Seq && !files->items.empty())
    w.program_file = files->items[0].scalar;
  if (const YNode* h = task.get("input_file_hashes"); h && h->kind == YNode::Map && !h->map.empty())
    w.program_hash = h->map[0].second.scalar;
  const YNode& content = need(*entry, "content", "the entry");
  if (content.kind != YNode::Seq || content.items.empty()) throw ParseError("YAML witness: content is not a list of segments");
  w.nodes = 1;
  w.violation = {false};
  w.sink = {false};
  const unsigned sink = 0xffffffffu;
  std::vector<Edge> to_sink;
  for (std::size_t si = 0; si < content.items.size(); ++si) {
    const YNode& seg = need(content.items[si], "segment", "a content item");
    if (seg.kind != YNode::Seq || seg.items.empty()) throw ParseError("YAML witness: an empty segment");
    std::vector<Match> targets;
    std::optional<Match> follow_match;
    const unsigned node = w.nodes - 1;
    for (const YNode& item : seg.items) {
      bool target = false, follow = false;
      const Match m = waypoint_match(need(item, "waypoint", "a segment item"), target, follow);
      if (!follow) {
        to_sink.push_back({node, sink, m});
        continue;
      }
      if (target) targets.push_back(m);
      else if (follow_match) throw ParseError("YAML witness: a segment with two follow waypoints");
      else follow_match = m;
    }
    const bool last = si + 1 == content.items.size();
    if (!targets.empty() && !last) throw ParseError("YAML witness: a target waypoint before the final segment");
    if (last && targets.empty()) throw ParseError("YAML witness: the final segment has no target waypoint");
    if (last) {
      if (follow_match) throw ParseError("YAML witness: the final segment follows a waypoint besides its target");
      if (w.property == Property::Reach) {
        if (targets.size() != 1) throw ParseError("YAML witness: an unreach-call witness ends in one target");
        w.edges.push_back({node, node + 1, targets[0]});
        ++w.nodes;
        w.violation.push_back(true);
        w.sink.push_back(false);
      } else {
        if (targets.size() != 2) throw ParseError("YAML witness: a data-race witness ends in two targets");
        for (Match& t : targets) t.target = false;
        w.race_targets = targets;
        w.race_node = node;
      }
      break;
    }
    if (!follow_match) throw ParseError("YAML witness: a segment without a follow waypoint");
    w.edges.push_back({node, node + 1, *follow_match});
    ++w.nodes;
    w.violation.push_back(false);
    w.sink.push_back(false);
  }
  // Avoid waypoints: edges into one sink node.
  if (!to_sink.empty()) {
    const unsigned s = w.nodes++;
    w.violation.push_back(false);
    w.sink.push_back(true);
    for (Edge e : to_sink) {
      e.to = s;
      w.edges.push_back(e);
    }
  }
  return w;
}

}  // namespace

std::optional<Witness> parse(const std::string& text, std::string& error) {
  try {
    const std::size_t b = text.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) throw ParseError("empty witness file");
    if (text[b] == '<') return from_graphml(text);
    return from_yaml(text);
  } catch (const ParseError& e) {
    error = e.what();
    return std::nullopt;
  }
}

}  // namespace siren::witness
