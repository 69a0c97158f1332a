//! The files a bundled module embeds (`include_bytes!`, the value network's weights):
//! left out, or packed into text that the bundle unpacks at run time.

use std::path::Path;

/// `code` with each `include_bytes!(…)` replaced by an empty byte string: a bundle with
/// play-outs leaves the value network's weights (15,600 characters packed) out.
pub(super) fn without_embedded_files(code: &str) -> String {
    replace_embedded_files(code, |_| Ok("b\"\"".into())).expect("nothing to read")
}

/// `code` with each `include_bytes!("FILE")` (FILE under `folder`) replaced by the file
/// packed into text and unpacked at run time (the value network's weights: the
/// packing's 8-bit words fit them).
pub(super) fn packed_embedded_files(code: &str, folder: &Path) -> Result<String, String> {
    replace_embedded_files(code, |file| {
        let path = folder.join(file);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text = mctsbot::uttt::nn::pack_weights(&bytes);
        Ok(format!("crate::uttt::nn::unpack_weights(\"{text}\")"))
    })
}

/// `code` with each `include_bytes!("FILE")` replaced by `with(FILE)`.
fn replace_embedded_files(
    code: &str,
    mut with: impl FnMut(&str) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(start) = rest.find("include_bytes!(") {
        let end = rest[start..]
            .find(')')
            .map_or(rest.len(), |e| start + e + 1);
        let file = rest[start..end]
            .trim_start_matches("include_bytes!(")
            .trim_end_matches(')')
            .trim()
            .trim_matches('"');
        out.push_str(&rest[..start]);
        out.push_str(&with(file)?);
        rest = &rest[end..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_files_are_left_out_or_packed_in() {
        let code = "fn w() -> Vec<u8> { include_bytes!(\"nn_weights.bin\").to_vec() }\n";
        assert_eq!(
            without_embedded_files(code),
            "fn w() -> Vec<u8> { b\"\".to_vec() }\n"
        );
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
        let packed = packed_embedded_files(code, &src.join("uttt")).unwrap();
        let text = packed
            .strip_prefix("fn w() -> Vec<u8> { crate::uttt::nn::unpack_weights(\"")
            .and_then(|rest| rest.strip_suffix("\").to_vec() }\n"))
            .unwrap();
        let file = std::fs::read(src.join("uttt/nn_weights.bin")).unwrap();
        assert_eq!(mctsbot::uttt::nn::unpack_weights(text), file);
        assert!(packed_embedded_files(code, &src).is_err());
    }
}
