//! `rtoslab-vp` binary: parse the command line and run (see cli.rs).

use clap::Parser;
use rtoslab_vp::cli::{run, Cli, Cmd};

fn main() {
    let cli = Cli::parse(); // usage errors exit with status 2 (clap's default)
    let status = match cli.cmd {
        Cmd::Run(a) => match run(a) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("rtoslab-vp: {}", e.0);
                2
            }
        },
    };
    std::process::exit(status);
}
