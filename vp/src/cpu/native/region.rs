//! Chaining: the blocks compiled into one function with the hot block at `i`, so that a loop
//! of several blocks (and a branch into a warm block after it) stays in compiled code instead
//! of returning to the dispatch loop at every block end.
//!
//! A region is the hot block and the blocks its static branches reach (B, BL, B<cond> both
//! ways, the fall-through of a block cut at `MAX_BLOCK`), taken breadth first while they are
//! warm (entered at least `hot / 2` times by the interpreter: the blocks of the same loop are
//! about as hot as its head), at most `MAX_BLOCKS`, and of those only the ones on a loop back
//! to the hot block: a block compiled costs about a thousand times its run (callgrind), and
//! the code after a loop is entered once per loop. Every block of the region keeps its own check point at its start
//! (translate.rs): the cycles and the interrupts are those of separate blocks.

use super::translate::{inline_cost, BlockOp};
use crate::cpu::block::{ends_block, MAX_BLOCK};
use crate::cpu::decode::Op;

/// Blocks in one compiled function at most (compile time grows with it; loops of the mixed
/// workload have 2-5 blocks).
pub const MAX_BLOCKS: usize = 8;

/// The block of the flash table `ops` starting at index `i` (the block engine's blocks).
pub fn block_at(ops: &[Op], i: usize) -> Vec<BlockOp> {
    let mut out = Vec::new();
    let mut k = i;
    while let Some(op) = ops.get(k) {
        let pc = (k * 2) as u32;
        out.push(BlockOp { op: *op, pc });
        if ends_block(op) || out.len() == MAX_BLOCK {
            break;
        }
        k = (pc.wrapping_add(op.size()) >> 1) as usize;
    }
    out
}

/// Where control may go after `block` without a helper deciding it (its static successors).
fn successors(block: &[BlockOp]) -> Vec<u32> {
    let Some(last) = block.last() else { return Vec::new() };
    let next = last.pc.wrapping_add(last.op.size());
    match last.op {
        Op::B { target } | Op::Bl { target } => vec![target],
        Op::Bcond { target, .. } => vec![target, next],
        _ if !ends_block(&last.op) => vec![next],
        _ => Vec::new(),
    }
}

/// Does compiling the hot `block` pay? Not if most of its ops go through the interpreter's
/// helper anyway: each helper call stores and reloads the cached state, so such a block runs
/// no faster compiled, and compiling it costs as much as interpreting it thousands of times.
pub fn worth_compiling(block: &[BlockOp], mul_cycles: u64) -> bool {
    let inlined = block.iter().filter(|o| inline_cost(&o.op, mul_cycles).is_some()).count();
    inlined >= MIN_INLINED && inlined * 2 >= block.len()
}

/// The fewest inlined ops in a block worth compiling.
pub const MIN_INLINED: usize = 2;

/// The region of the hot block at `i`: its blocks, the hot one first.
pub fn region(ops: &[Op], hits: &[u16], hot: u16, i: usize) -> Vec<Vec<BlockOp>> {
    let warm = hot / 2;
    let mut blocks = vec![block_at(ops, i)];
    let mut starts = vec![i];
    let mut k = 0;
    while k < blocks.len() && blocks.len() < MAX_BLOCKS {
        for s in successors(&blocks[k]) {
            let j = (s >> 1) as usize;
            if s & 1 != 0 || j >= ops.len() || starts.contains(&j) || hits[j] < warm {
                continue;
            }
            if blocks.len() == MAX_BLOCKS {
                break;
            }
            starts.push(j);
            blocks.push(block_at(ops, j));
        }
        k += 1;
    }
    // keep the blocks on a loop through the hot one (the others would only be compiled)
    let mut back = vec![false; blocks.len()];
    back[0] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for (b, block) in blocks.iter().enumerate() {
            if !back[b]
                && successors(block)
                    .iter()
                    .any(|&s| starts.iter().zip(&back).any(|(&st, &y)| y && st * 2 == s as usize))
            {
                back[b] = true;
                grew = true;
            }
        }
    }
    blocks.into_iter().zip(back).filter(|(_, y)| *y).map(|(b, _)| b).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pc 0: NOP, BNE 8 | 4: B 12 | 8: NOP, B 0 | 12: NOP, SVC (one entry per halfword)
    fn program() -> Vec<Op> {
        vec![
            Op::Nop,
            Op::Bcond { cond: 1, target: 8 },
            Op::B { target: 12 },
            Op::Nop,
            Op::Nop,
            Op::B { target: 0 },
            Op::Nop,
            Op::Svc { imm: 0 },
        ]
    }

    fn starts(r: &[Vec<BlockOp>]) -> Vec<u32> {
        r.iter().map(|b| b[0].pc).collect()
    }

    #[test]
    fn a_region_is_the_warm_blocks_on_a_loop_through_the_hot_one() {
        let ops = program();
        // 4 and 12 are warm and reached, but lead out of the loop: left out
        assert_eq!(starts(&region(&ops, &[256; 8], 256, 0)), vec![0, 8]);
        // a cold block is left out even on the loop: the hot block alone
        let mut hits = [256u16; 8];
        hits[4] = 127;
        assert_eq!(starts(&region(&ops, &hits, 256, 0)), vec![0]);
        // from 8: the loop 8 -> 0 -> 8
        assert_eq!(starts(&region(&ops, &[256; 8], 256, 4)), vec![8, 0]);
    }
}
