import { describe, expect, it } from "vitest";
import { FairScheduler, type TicketInput, type Verdict } from "./scheduler.ts";
import { callPriority, queueBudgetMs } from "./priority.ts";

const ticket = (tenantId: string, over: Partial<TicketInput> = {}): TicketInput => ({ tenantId, weight: 1, priority: "standard", cost: 100, deadline: 1_000_000, ...over });

/** A scheduler with room for `slots` calls, and the order in which queued tickets got in. */
function setup(slots: number, maxQueue = 1000) {
  let capacity = slots;
  const s = new FairScheduler({ capacity: () => capacity, maxQueue });
  const order: string[] = [];
  const queue = (name: string, input: TicketInput, now = 0) => {
    const v = s.submit(input, now);
    if (!(v instanceof Promise)) throw new Error(`${name} was not queued`);
    void v.then((r) => r.admitted && order.push(name));
    return v;
  };
  return { s, order, queue, setCapacity: (n: number) => (capacity = n) };
}

const settle = () => new Promise((r) => setImmediate(r));

describe("the overload scheduler", () => {
  it("admits at once while the replicas have room, and queues past it", () => {
    const { s } = setup(2);
    expect(s.submit(ticket("a"), 0)).toEqual({ admitted: true, queuedMs: 0 });
    expect(s.submit(ticket("a"), 0)).toEqual({ admitted: true, queuedMs: 0 });
    expect(s.submit(ticket("a"), 0)).toBeInstanceOf(Promise);
    expect(s.queued).toBe(1);
  });

  it("serves interactive before standard before batch, whatever came first", async () => {
    const { s, order, queue } = setup(1);
    s.submit(ticket("x"), 0);
    queue("batch", ticket("a", { priority: "batch" }));
    queue("standard", ticket("b"));
    queue("interactive", ticket("c", { priority: "interactive" }));
    for (let i = 0; i < 3; i++) s.release(i === 0 ? "x" : "", 100, 100, 10 * i);
    await settle();
    expect(order).toEqual(["interactive", "standard", "batch"]);
  });

  it("shares tokens between the tenants of a class by their weights, not by their requests", async () => {
    const { s, queue } = setup(1);
    s.submit(ticket("warm"), 0);
    const got = { heavy: 0, light: 0 };
    // heavy asks for 10 calls of 100 tokens at weight 1, light for 10 of 100 at weight 3.
    for (let i = 0; i < 10; i++) {
      void queue("h", ticket("heavy")).then((v) => v.admitted && got.heavy++);
      void queue("l", ticket("light", { weight: 3 })).then((v) => v.admitted && got.light++);
    }
    s.release("warm", 100, 100, 1);
    for (let i = 0; i < 7; i++) s.release("", 100, 100, 2 + i);
    await settle();
    // Of the first 8 admitted, weight 3 against 1 gives light 6 and heavy 2.
    expect(got).toEqual({ heavy: 2, light: 6 });
  });

  it("counts the tokens a call really cost: a tenant whose calls ran long waits for one whose ran short", async () => {
    const { s, order, queue } = setup(2);
    s.submit(ticket("long"), 0);
    s.submit(ticket("short"), 0);
    queue("long", ticket("long"));
    queue("short", ticket("short"));
    s.release("long", 100, 2000, 1); // estimated 100, cost 2000
    await settle();
    expect(order).toEqual(["short"]);
  });

  it("does not let an idle tenant bank credit: it starts level with the busy ones", async () => {
    const { s, order, queue } = setup(1);
    s.submit(ticket("busy", { cost: 10_000 }), 0);
    s.release("busy", 10_000, 10_000, 1);
    s.submit(ticket("busy"), 2); // busy now at 10100 weighted tokens, and running
    queue("busy", ticket("busy"));
    queue("busy", ticket("busy"));
    queue("new", ticket("new"));
    queue("new", ticket("new"));
    for (let i = 0; i < 4; i++) s.release("", 100, 100, 3 + i);
    await settle();
    // Caught up to busy's clock, "new" alternates with it instead of taking every call first.
    expect(order).toEqual(["busy", "new", "busy", "new"]);
  });

  it("answers a queued call by its deadline: 503 for a tenant within its share", async () => {
    const { s, queue } = setup(1);
    s.submit(ticket("a"), 0);
    const v = queue("b", ticket("b", { deadline: 500 }), 0);
    s.tick(499);
    expect(s.queued).toBe(1);
    s.tick(500);
    expect(await v).toMatchObject({ admitted: false, reason: "deadline", status: 503, queuedMs: 500 });
    expect((await v as Extract<Verdict, { admitted: false }>).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it("sheds the tenant asking for five times its share with 429, naming its reason", async () => {
    const { s, queue } = setup(1);
    s.submit(ticket("quiet"), 0);
    const noisy = Array.from({ length: 5 }, () => queue("n", ticket("noisy", { priority: "batch", deadline: 100 })));
    queue("q", ticket("quiet", { deadline: 100 }));
    s.tick(100);
    expect(await noisy[0]).toMatchObject({ admitted: false, reason: "over_share", status: 429 });
    expect(s.shed.over_share).toBe(5);
  });

  it("refuses at once what the queue cannot drain before its deadline, rather than holding it to the end", async () => {
    const { s, queue } = setup(1);
    // Drains at one call per 100 ms.
    for (let t = 0; t <= 500; t += 100) {
      s.submit(ticket("a"), t);
      s.release("a", 100, 100, t);
    }
    s.submit(ticket("a"), 600);
    for (let i = 0; i < 5; i++) queue("a", ticket("a"), 600);
    const late = s.submit(ticket("b", { deadline: 700 }), 600);
    expect(await late).toMatchObject({ admitted: false, reason: "deadline", queuedMs: 0 });
  });

  it("when the queue is full, drops the lowest class's newest ticket, not the interactive newcomer", async () => {
    const { s, queue } = setup(1, 2);
    s.submit(ticket("a"), 0);
    const batch = queue("b1", ticket("a", { priority: "batch" }));
    queue("b2", ticket("a", { priority: "standard" }));
    queue("i", ticket("b", { priority: "interactive" }));
    expect(await batch).toMatchObject({ admitted: false, reason: "queue_full" });
    expect(s.depth()).toEqual([
      { priority: "standard", tenantId: "a", queued: 1 },
      { priority: "interactive", tenantId: "b", queued: 1 },
    ]);
  });
});

describe("a call's priority class", () => {
  it("lets any key lower its class by header, and only an allowed key raise it, never above its plan's", () => {
    expect(callPriority("standard", "batch", false, "interactive")).toBe("batch");
    expect(callPriority("standard", "interactive", false, "interactive")).toBe("standard");
    expect(callPriority("batch", "interactive", true, "interactive")).toBe("interactive");
    expect(callPriority("batch", "interactive", true, "standard")).toBe("standard");
    expect(callPriority("batch", "urgent", true, "interactive")).toBe("batch");
    expect(callPriority("interactive", undefined, false, "interactive")).toBe("interactive");
  });

  it("gives an interactive call its TTFT SLO less the engine's own first-token time to wait", () => {
    expect(queueBudgetMs("interactive", 1000, 300)).toBe(700);
    expect(queueBudgetMs("interactive", 1000, 2000)).toBe(200);
    expect(queueBudgetMs("standard", null, 0)).toBe(8000);
    expect(queueBudgetMs("batch", 1000, 0)).toBe(60_000);
  });
});
