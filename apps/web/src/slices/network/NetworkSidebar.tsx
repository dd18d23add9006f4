import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
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
import { headQuery } from '../../api/queries';
import { formatTime } from '../../shared/format/format';
import { sidebarSyncNote } from './network-sync';

/**
 * The networks with their protocol (first 8 characters) and the time of their last update; a network that is
 * not synced says how far behind its node it is, or that its node is unreachable.
 */
export function NetworkSidebar({ states, current }: { states: Block[] | undefined; current: string }) {
  const heads = useQuery(headQuery());
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
                        ? [
                            s.protocol ? s.protocol.slice(0, 8) : 'no protocol yet',
                            formatTime(s.timestamp),
                            sidebarSyncNote(heads.data?.find((h) => h.network === s.network)),
                          ]
                            .filter(Boolean)
                            .join(' · ')
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
