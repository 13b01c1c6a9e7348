//! The probe: 32 pins the firmware drives with one store; the simulator's logic analyser.

use crate::lab_bus::LabBus;

impl LabBus {
    pub fn probe_set_pins(&mut self, v: u32, done: u64) {
        let changed = self.lab.probe ^ v;
        self.lab.probe = v;
        if changed != 0 {
            if let Some(o) = self.obs.as_mut() {
                o.probe(done, v, changed);
            }
        }
    }

    pub fn probe_mark(&mut self, v: u32, done: u64) {
        if let Some(o) = self.obs.as_mut() {
            o.mark(done, v);
        }
        if let Some(m) = self.masked.as_mut() {
            m.mark(done, v);
        }
    }
}
