//! JSON examples with elisions: the shape a document shows against the
//! lines the binary prints.

use serde_json::Value;

/// `line` with the document's elisions (`…` for elements, members or a
/// value) made valid JSON.
fn unelided(line: &str) -> String {
    line.replace(",…]", "]")
        .replace(",…}", "}")
        .replace("[…]", "[]")
        .replace("{…}", "{}")
        .replace(":…", ":null")
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// Each line of `example` has the keys, in order, of a line of `printed`
/// with the same `type` (or, for an error line, of a printed error line).
pub fn same_shapes(example: &str, printed: &str) -> Result<(), String> {
    let printed: Vec<Value> = printed
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    for line in example.lines() {
        let want: Value = serde_json::from_str(&unelided(line))
            .map_err(|e| format!("not JSON once elisions are read ({e}): {line}"))?;
        let kind = want
            .get("type")
            .or_else(|| want.get("error").map(|_| &Value::Null));
        let same = printed.iter().find(|got| {
            let got_kind = got
                .get("type")
                .or_else(|| got.get("error").map(|_| &Value::Null));
            got_kind == kind && keys(got) == keys(&want)
        });
        if same.is_none() {
            let kinds: Vec<String> = printed.iter().map(|g| format!("{:?}", keys(g))).collect();
            return Err(format!(
                "no printed line of this type has these keys in this order: {line}\nprinted: {kinds:?}"
            ));
        }
    }
    Ok(())
}

/// Every `"name"` in `outline` is a key somewhere in the JSON `printed`.
pub fn keys_present(outline: &str, printed: &str) -> Result<(), String> {
    let value: Value =
        serde_json::from_str(printed).map_err(|e| format!("output not JSON: {e}"))?;
    let mut all = Vec::new();
    collect(&value, &mut all);
    for name in outline.split('"').skip(1).step_by(2) {
        if !all.iter().any(|k| k == name) {
            return Err(format!("`{name}` is not a key of the output"));
        }
    }
    Ok(())
}

fn collect(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                collect(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
        _ => {}
    }
}
