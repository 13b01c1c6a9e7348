//! `rtoslab-vp` binary: parse the command line and run (see cli.rs).

use clap::Parser;
mod cli;

use cli::{run, Cli, Cmd};
use rtoslab_vp::contract::STATUS_BAD_INPUT;

fn main() {
    // usage errors exit with status 2 (clap's default), the same as STATUS_BAD_INPUT
    let cli = Cli::parse();
    let status = match cli.cmd {
        Cmd::Run(a) => match run(a) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("rtoslab-vp: {}", e.0);
                STATUS_BAD_INPUT
            }
        },
    };
    std::process::exit(status);
}
