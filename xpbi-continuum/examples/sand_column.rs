//! `cargo run -p xpbi-continuum --release --example sand_column -- N THREADS SECONDS [ITERATIONS]`
//! prints the JSON line of `run_sand_column_3d` (what `cargo xtask bench xpbi` calls).

use xpbi_validation::sand_column::{SandColumnConfig, run_sand_column_3d};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: f64| args.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(d);
    let mut c = SandColumnConfig::new(arg(1, 10_000.0) as usize);
    c.threads = arg(2, 1.0) as usize;
    c.seconds = arg(3, 0.2);
    c.iterations = arg(4, 10.0) as usize;
    match run_sand_column_3d(&c) {
        Ok(r) => println!("{}", r.to_json()),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
