export { createLane, ticketFor } from './admission';
export { weighRequest, planCost, type Weighed } from './cost';
export { HeavyLane, LaneTicket, type WaitWatch } from './heavy-lane';
