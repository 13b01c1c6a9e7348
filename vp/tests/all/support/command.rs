//! Running the `rtoslab-vp` binary from a test, with its files in a temporary folder.

use std::path::PathBuf;
use std::process::Command;

/// `name` in this process's temporary folder `tag` (one per test file, so that the files of
/// tests running at once never meet).
pub fn tmp_in(tag: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rtoslab-vp-{}-{}", tag, std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// `rtoslab-vp ARGS`: its exit status, stdout and stderr.
pub fn vp(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rtoslab-vp")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}
