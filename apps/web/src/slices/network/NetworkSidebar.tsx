import { Link as RouterLink } from 'react-router';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { Block } from '@michelscope/api-types';
import { chooseNetwork } from '../../shared/config/chosen-network';
import { sortNetworks } from '../../shared/config/network-order';
import { formatTime } from '../../shared/format/format';

/** The networks with their protocol (first 8 characters) and the time of their last update. */
export function NetworkSidebar({ states, current }: { states: Block[] | undefined; current: string }) {
  return (
    <Paper variant="outlined" component="nav" aria-label="Networks">
      <Typography variant="overline" component="h2" sx={{ px: 2, pt: 1, display: 'block' }}>
        Networks
      </Typography>
      <List dense>
        {states === undefined
          ? Array.from({ length: 3 }, (_, i) => (
              <ListItem key={i}>
                <ListItemText primary={<Skeleton width="60%" />} secondary={<Skeleton width="80%" />} />
              </ListItem>
            ))
          : sortNetworks(states, (s) => s.network).map((s) => (
              <ListItem key={s.network} disablePadding>
                <ListItemButton
                  component={RouterLink}
                  to={`/${s.network}/recently_called`}
                  onClick={() => chooseNetwork(s.network)}
                  selected={s.network === current}
                  aria-current={s.network === current ? 'page' : undefined}
                >
                  <ListItemText
                    primary={s.network}
                    secondary={
                      s.level > 0
                        ? `${s.protocol ? s.protocol.slice(0, 8) : 'no protocol yet'} · ${formatTime(s.timestamp)}`
                        : 'not synced yet'
                    }
                  />
                </ListItemButton>
              </ListItem>
            ))}
      </List>
    </Paper>
  );
}
