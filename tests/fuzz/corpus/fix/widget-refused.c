// SPDX-License-Identifier: GPL-2.0
/* Written for kleakscan's fuzz-fix seeds: calls the fixer refuses. */
#define WDBG(p) pr_debug("widget dbg %px\n", p)

void f(unsigned long addr, phys_addr_t pa, struct pt_regs *regs, void *p)
{
	pr_alert("at %08lx\n", addr);
	pr_info("pa %lx\n", (unsigned long)pa);
	pr_info("sp %lx\n", (unsigned long)regs->sp);
	pr_info("end %lx\n", (unsigned long)p + 4);
	pr_info("p %" "px\n", p);
	pr_info("q %px\n");
#ifdef CONFIG_X
	pr_info("r %px\n",
#else
	pr_info("r %px\n",
#endif
		p);
}
